"""The agent's view of the kernel harness: tasks, the target, and verification as a plain verdict dict."""

from __future__ import annotations

import dataclasses
import importlib
import json
import threading
from pathlib import Path
from typing import Any

from benchmarks.executor import Executor, LocalExecutor, Place
from benchmarks.kernels.fanout import VERIFIERS, verification_job
from benchmarks.kernels.verifier.harness import EvalConfig
from benchmarks.kernels.verifier.result import KernelResult, Status
from benchmarks.kernels.verifier.runner.launch import CODE_PACKAGES
from benchmarks.kernels.verifier.runner.persistent import VerifierPool
from benchmarks.kernels.kernelbench import ShapeScaling
from benchmarks.kernels.tasks import KernelTask, SkippedTask, load_tasks
from sandboxes.errors import UserError
from sandboxes.targets.base import Target
from sandboxes.targets.cache import default_cache_root
from sandboxes.targets.snapshot import code_snapshot

from agents.evokernel.records import Verdict
from agents.evokernel.verdicts import VerdictCache, digest

TARGETS = {"cpu": "sandboxes.targets.cpu:CpuTarget", "gpu": "sandboxes.targets.gpu:GpuTarget",
           "npu": "sandboxes.targets.npu.target:NpuTarget"}
DETERMINISTIC = {Status.CORRECT.value, Status.INCORRECT.value, Status.REJECTED.value, Status.COMPILE_ERROR.value}
"""Statuses a fresh verification repeats on a simulated target (a crash or a timeout may be the machine's)."""


def make_target(name: str) -> Target:
    """The Target named ``name`` (cpu, gpu, npu)."""
    if name not in TARGETS:
        raise UserError(f"unknown target '{name}': choose from {', '.join(TARGETS)}")
    module, _, cls = TARGETS[name].partition(":")
    try:
        return getattr(importlib.import_module(module), cls)()
    except (ImportError, AttributeError) as error:
        raise UserError(f"target '{name}' is not available in this installation: {error}") from error


class KernelEnv:
    """Verifies candidate solutions through the harness; identical sources are verified once per run,
    and on a simulated target once across runs when ``verdicts`` (a shared ``VerdictCache`` file) is given.

    ``persistent``: verify through long-lived trusted runners (one per concurrently verifying worker,
    reused for every later candidate) instead of a fresh sandboxed runner per candidate; :meth:`close`
    stops them. ``executor``: where verifications run (default here; on ``ray`` each node verifies in its own
    sandbox through its own runners, while the cache, the graph and the memory stay in this process)."""

    def __init__(self, target: Target, evaluation: EvalConfig | None = None, sandbox: Any = None,
                 persistent: bool = True, verdicts: str | Path | None = None, executor: Executor | None = None):
        self.target = target
        self.evaluation = evaluation or EvalConfig()
        self.sandbox = sandbox
        self.verifiers = VerifierPool() if persistent else None
        self.executor = executor or LocalExecutor()
        self.place = Place(sandbox, kept={VERIFIERS: self.verifiers} if persistent else None)
        self.shared = VerdictCache(verdicts, self.fingerprint()) if verdicts and target.simulated else None
        self._cache: dict[str, Verdict] = {}
        self._lock = threading.Lock()

    def fingerprint(self) -> str:
        """Everything besides task and solution that decides a verdict: target, settings, verifier code."""
        settings = json.dumps(dataclasses.asdict(self.target.runner_settings()), sort_keys=True, default=str)
        code = code_snapshot(self.target.cache_dir() or default_cache_root(), CODE_PACKAGES).name
        return digest(self.target.name, settings, self.evaluation.model_dump_json(), code)

    def stop_verifiers(self) -> None:
        """Stop the persistent runners (a later verify starts new ones)."""
        if self.verifiers is not None:
            self.verifiers.close()

    def close(self) -> None:
        """Stop the persistent runners and close the shared cache."""
        self.stop_verifiers()
        if self.shared is not None:
            self.shared.close()

    @property
    def language(self) -> str:
        return self.target.solution_language

    def tasks(self, selector: str, scaling: ShapeScaling | None = None,
              skipped: list[SkippedTask] | None = None) -> list[KernelTask]:
        """The tasks of ``selector``, scaled by ``scaling``; malformed files go to ``skipped``."""
        return load_tasks(selector, scaling, skipped)

    def verify(self, task: KernelTask, source: str) -> Verdict:
        """The verdict of ``source`` for ``task`` (see :func:`verdict`); never raises for a bad kernel."""
        key = digest(task.qualified_name, task.source, source)
        with self._lock:
            cached = self._cache.get(key)
        if cached is None and self.shared is not None:
            cached = self.shared.get(task.source, source)
        if cached is not None:
            return {**cached, "cached": True}
        job = verification_job(task, source, self.target, self.evaluation, self.verifiers is not None)
        result = self.executor.run(job, self.place)
        if result.status is Status.SANDBOX_ERROR:  # not the kernel's doing: stop before it is counted or learnt
            raise UserError(f"the sandbox failed while verifying {task.qualified_name}: {result.reason}; this "
                            "attempt is not counted, learnt from or rewarded. Fix the sandbox (agent doctor), then "
                            "continue with the command the run printed when it started (agent runs resume <its id>; "
                            "agent runs list shows it)")
        outcome = verdict(result)
        with self._lock:
            self._cache[key] = outcome
        if self.shared is not None and outcome["status"] in DETERMINISTIC:
            self.shared.put(task.source, source, outcome)
        return outcome


def verdict(result: KernelResult) -> Verdict:
    """A checkpoint-friendly verdict: status, feasibility, latency, profiler summary and feedback."""
    extras = dict(result.extras)
    return {
        "status": result.status.value, "feasible": result.correct, "compiled": result.compiled or result.correct,
        "latency_ms": result.runtime_ms if result.correct else None, "reference_ms": result.reference_ms,
        "bottleneck": extras.get("bottleneck"), "roofline_fraction": extras.get("roofline_fraction"),
        "simulated": bool(extras.get("simulated")), "profile": profile_text(extras),
        "feedback": feedback_text(result), "extras": extras, "seconds": round(result.seconds, 3), "cached": False,
    }


def profile_text(extras: dict[str, Any]) -> str:
    """The profiler's view in one line (bottleneck pipe, busy fractions, roofline), or ''."""
    parts = []
    if extras.get("bottleneck"):
        parts.append(f"bottleneck pipe {extras['bottleneck']}")
    busy = extras.get("pipe_busy") or extras.get("busy")
    if isinstance(busy, dict):
        parts.append("busy " + ", ".join(f"{pipe} {float(value):.0%}" for pipe, value in busy.items()))
    if extras.get("roofline_fraction") is not None:
        parts.append(f"{float(extras['roofline_fraction']):.0%} of roofline")
    if extras.get("cycles") is not None:
        parts.append(f"{extras['cycles']} cycles")
    return "; ".join(parts) + (" (simulated)" if parts and extras.get("simulated") else "")


def feedback_text(result: KernelResult) -> str:
    """What the verifier says, in words a model can act on."""
    if result.correct:
        timing = f"{result.runtime_ms:.4g} ms" if result.runtime_ms else "not timed"
        reference = f" vs reference {result.reference_ms:.4g} ms" if result.reference_ms else ""
        notes = [result.reason] if result.reason else []
        notes += [f"flagged: {flag}" for flag in result.flags]
        notes += [text for text in [result.evidence.get("range_trial", "")] if text.startswith("failed")]
        return f"correct; {timing}{reference}" + "".join(f"; {note}" for note in notes)
    return f"{result.status.value}: {result.reason or 'no detail'}"
