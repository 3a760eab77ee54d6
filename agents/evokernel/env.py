"""The agent's view of the kernel harness: tasks, the target, and verification as a plain verdict dict."""

from __future__ import annotations

import hashlib
import importlib
import threading
from typing import Any

from benchmarks.kernels.verifier.harness import EvalConfig, evaluate
from benchmarks.kernels.verifier.result import KernelResult
from benchmarks.kernels.verifier.runner.persistent import VerifierPool
from benchmarks.kernels.tasks import KernelTask, load_tasks
from sandboxes.errors import UserError
from sandboxes.targets.base import Target

TARGETS = {"cpu": "sandboxes.targets.cpu:CpuTarget", "gpu": "sandboxes.targets.gpu:GpuTarget",
           "npu": "sandboxes.targets.npu.target:NpuTarget"}


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
    """Verifies candidate solutions through the harness; identical sources are verified once.

    ``persistent``: verify through long-lived trusted runners (one per concurrently verifying worker,
    reused for every later candidate) instead of a fresh sandboxed runner per candidate; :meth:`close`
    stops them."""

    def __init__(self, target: Target, evaluation: EvalConfig | None = None, sandbox: Any = None,
                 persistent: bool = True):
        self.target = target
        self.evaluation = evaluation or EvalConfig()
        self.sandbox = sandbox
        self.verifiers = VerifierPool() if persistent else None
        self._cache: dict[str, dict[str, Any]] = {}
        self._lock = threading.Lock()

    def close(self) -> None:
        """Stop the persistent runners (a later verify starts new ones)."""
        if self.verifiers is not None:
            self.verifiers.close()

    @property
    def language(self) -> str:
        return self.target.solution_language

    def tasks(self, selector: str) -> list[KernelTask]:
        return load_tasks(selector)

    def verify(self, task: KernelTask, source: str) -> dict[str, Any]:
        """The verdict of ``source`` for ``task`` (see :func:`verdict`); never raises for a bad kernel."""
        key = hashlib.sha256(f"{task.qualified_name}\0{task.source}\0{source}".encode()).hexdigest()
        with self._lock:
            cached = self._cache.get(key)
        if cached is not None:
            return {**cached, "cached": True}
        result = evaluate(task, source, self.target, sandbox=self.sandbox, config=self.evaluation,
                          runner=self.verifiers)
        outcome = verdict(result)
        with self._lock:
            self._cache[key] = outcome
        return outcome


def verdict(result: KernelResult) -> dict[str, Any]:
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
        return f"correct; {timing}{reference}" + (f"; {result.reason}" if result.reason else "")
    return f"{result.status.value}: {result.reason or 'no detail'}"
