"""Host side of the trusted runner: stage the work dir, run it in the sandbox, verify the signed verdict."""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from pydantic import Field

from benchmarks.kernels.verifier.runner.signing import sign
from sandboxes.base import Limits, RunResult, Sandbox
from sandboxes.settings import Config
from sandboxes.targets.base import ExtensionSpec, RunnerSettings
from sandboxes.targets.cache import default_cache_root
from sandboxes.targets.snapshot import code_snapshot

CODE_PACKAGES = ("sandboxes", "benchmarks")
"""Our packages the runner and workers import inside the sandbox (from a snapshot, see snapshot.py)."""


class EvalConfig(Config):
    """How hard the verifier looks at one solution."""

    trials: int = Field(5, ge=1)
    """Correctness trials, each with fresh random inputs from a fresh seed (at least 5 by default)."""
    range_check: Literal["refuse", "flag", "off"] = "flag"
    """One more correctness trial, on fresh inputs whose floating values are scaled far outside the task's
    distribution (see :data:`.compare.RANGE_SCALE`; skipped when the reference fails or overflows there). A kernel
    that is wrong there (a softmax without the max subtraction, an exp-based tanh that gives NaN): refuse it, only
    flag the row (the default: KernelBench judges on the task's own inputs, and honest ``-ffast-math`` kernels give
    NaN past exp's range), or do not try."""
    warmup: int = Field(3, ge=0)
    """Untimed calls per side before timing starts."""
    min_timed_trials: int = Field(10, ge=1)
    """Timed calls per side at least."""
    timed_trials: int = Field(50, ge=1)
    """Timed calls per side at most."""
    timing_budget_s: float = Field(3.0, ge=0)
    """Stop timing once this much time has passed and min_timed_trials are done."""
    call_timeout_s: float = Field(30.0, gt=0)
    """A single forward call (or its preparation) must answer within this many seconds."""
    import_timeout_s: float = Field(60.0, gt=0)
    """Loading the solution (imports, cached extensions, construction) must finish within this."""
    timeout_s: float = Field(300.0, gt=0)
    """Wall-clock limit for the whole evaluation in the sandbox."""
    memory_mb: int = Field(6144, ge=256)
    """Memory limit for the runner and its workers together."""
    threads: int = Field(1, ge=1)
    """Intra-op threads for solution and reference alike (OMP_NUM_THREADS and torch threads)."""
    static_checks: bool = True
    """Run the AST rule catalogue first (turning it off is only for testing the runtime defences)."""
    tripwire: Literal["refuse", "flag", "off"] = "refuse"
    """What the runtime tripwire does when the solution's own code runs torch compute during forward:
    refuse the solution, only flag the row, or not trace at all (e.g. for an eager torch baseline)."""
    timing_checks: Literal["every_call", "legacy_sampled"] = "every_call"
    """every_call: fresh inputs for every timed call and every output checked (the judge). legacy_sampled:
    the first edition's two fixed input sets and three sampled re-checks, without precision check or
    tripwire; it can be fooled and exists only so that ``agent bench verifier`` measures the cost of the
    checks against it in the same run."""


@dataclass
class RunnerOutcome:
    """What one sandboxed runner invocation decided."""

    result: dict[str, Any]
    specs: list[ExtensionSpec] = field(default_factory=list)

    @property
    def needs_build(self) -> bool:
        """True when the worker asked for extensions that are not built yet."""
        return self.result.get("status") == "need_build"


def runner_config(settings: RunnerSettings, cache_dir: Path | None, config: EvalConfig) -> dict[str, Any]:
    """The config.json the runner and its workers read."""
    return {**config.model_dump(), "hooks": settings.hooks, "timing": settings.timing.value,
            "not_timed_reason": settings.not_timed_reason, "cache_salt": settings.cache_salt,
            "cache_dir": str(cache_dir) if cache_dir else "", "shapes": settings.shapes}


def runner_environment(settings: RunnerSettings, cache_dir: Path | None,
                       config: EvalConfig) -> tuple[dict[str, str], Limits]:
    """The runner's environment (our code from a read-only snapshot) and its sandbox limits."""
    code = code_snapshot(cache_dir or default_cache_root(), CODE_PACKAGES)
    env = {"PYTHONPATH": str(code), "OMP_NUM_THREADS": str(config.threads), "PYTHONDONTWRITEBYTECODE": "1",
           **settings.env}
    readonly = [str(code)] + ([str(cache_dir)] if cache_dir else [])
    limits = Limits(wall_s=config.timeout_s, cpu_s=config.timeout_s * (config.threads + 2), memory_mb=config.memory_mb,
                    pids=128, disk_mb=4096, output_bytes=1_000_000, cpus=float(max(1, config.threads)),
                    extra_ro_paths=readonly)
    return env, limits


def request_digest(task_source: str, solution_source: str) -> str:
    """What a verdict must name to be about this task and this solution (the runner echoes it, signed)."""
    return hashlib.sha256(json.dumps([task_source, solution_source]).encode()).hexdigest()[:32]


RUNNER_ARGV = ("-P", "-m", "benchmarks.kernels.verifier.runner.trusted")
"""The one-shot runner's interpreter arguments. -P: the work dir, which the solution's worker can write, is never on
the runner's sys.path (a module planted there, e.g. colorsys.py, was imported by the runner and ran with its key)."""


def run_trusted(task_source: str, solution_source: str, settings: RunnerSettings, cache_dir: Path | None,
                sandbox: Sandbox, config: EvalConfig) -> RunnerOutcome:
    """Run the trusted runner once in ``sandbox`` and return its verified verdict."""
    nonce = secrets.token_hex(16)
    request = request_digest(task_source, solution_source)
    runner = {**runner_config(settings, cache_dir, config), "request": request}
    files = {"task.py": task_source.encode(), "solution.py": solution_source.encode(),
             "config.json": json.dumps(runner).encode(), "nonce": nonce.encode()}
    env, limits = runner_environment(settings, cache_dir, config)
    run = sandbox.run([sys.executable, *RUNNER_ARGV], files=files, env=env, limits=limits)
    return runner_outcome(parse_verdict(run, nonce, config, request))


def runner_outcome(result: dict[str, Any]) -> RunnerOutcome:
    """Split the extension specs a ``need_build`` verdict carries off the result."""
    specs = [ExtensionSpec.from_json(s) for s in result.pop("specs", [])]
    return RunnerOutcome(result=result, specs=specs)


def sandbox_failure(run: RunResult) -> str:
    """Why ``run`` says nothing about the solution because the sandbox failed ('' when it ran): the backend
    reported an error, or the runner never started (exit 126/127, the sandbox could not execute it, no output)."""
    if run.sandbox_error:
        return run.sandbox_error
    if run.returncode in (126, 127) and not run.stdout.strip():
        tail = run.stderr.strip()[-500:]
        return f"the sandbox could not start the trusted runner (exit code {run.returncode}): {tail}"
    return ""


def signed_payload(line: str, nonce: str) -> str | None:
    """The JSON payload of an ``AKRESULT <hmac> <json>`` line signed with ``nonce``, else None."""
    if not line.startswith("AKRESULT "):
        return None
    _, signature, payload = (line.split(" ", 2) + ["", ""])[:3]
    return payload if hmac.compare_digest(signature, sign(nonce, payload)) else None


def parse_verdict(run: RunResult, nonce: str, config: EvalConfig, request: str = "") -> dict[str, Any]:
    """The runner's signed result, believed only from a runner that exited cleanly after signing it and
    only when it names ``request``; forged, duplicated or missing lines become a refusal, crash or timeout."""
    infrastructure = sandbox_failure(run)
    if infrastructure:
        return {"status": "sandbox_error", "stage": "sandbox", "reason": infrastructure}
    signed = [p for p in (signed_payload(line, nonce) for line in run.stdout.splitlines()) if p is not None]
    if len(signed) > 1:
        return {"status": "rejected", "stage": "verdict",
                "reason": "more than one signed verdict: the evaluation was tampered with"}
    unclean = _unclean_exit(run, config)
    if signed and unclean:
        return {"status": "crashed", "stage": "verdict",
                "reason": f"the trusted runner {unclean} after signing its verdict; a verdict from a runner that "
                          "did not exit cleanly is not believed"}
    if signed:
        result = json.loads(signed[0])
        if request and result.get("request") != request:
            return {"status": "crashed", "stage": "verdict", "reason": "the signed verdict is about another request"}
        return result
    if run.timed_out:
        return {"status": "timeout", "stage": "verdict",
                "reason": f"evaluation exceeded the {config.timeout_s:.0f} s wall-clock limit"}
    if run.oom_killed:
        return {"status": "crashed", "stage": "verdict",
                "reason": f"evaluation ran out of memory ({config.memory_mb} MiB limit; the task's inputs, weights and "
                          "output count too: shrink a KernelBench task with --max-input-mb or --shape-scale, or raise "
                          "--memory-mb)"}
    tail = (run.stderr or run.stdout)[-1500:].strip()
    return {"status": "crashed", "stage": "verdict",
            "reason": f"the trusted runner produced no verdict (exit code {run.returncode}): {tail}"}


def _unclean_exit(run: RunResult, config: EvalConfig) -> str:
    """How the runner failed to exit cleanly ('' when it exited with status 0 inside its limits)."""
    if run.timed_out:
        return f"ran past the {config.timeout_s:.0f} s wall-clock limit"
    if run.oom_killed:
        return "was killed for memory"
    if run.returncode > 128:
        return f"was killed by signal {run.returncode - 128}"
    if run.returncode != 0:
        return f"exited with code {run.returncode}"
    return ""
