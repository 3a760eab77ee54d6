"""The one programmatic entry point: ``evaluate(task, solution_source, target) -> KernelResult``.

Stages: static checks (rejected) -> native builds through the target, cached by source hash
(compile_error) -> correctness trials in the trusted runner (incorrect / crashed / timeout) ->
timing against the reference in the same run (correct, with runtime_ms / reference_ms / speedup).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

from benchmarks.kernels.verifier.prebuild import predicted_specs
from benchmarks.kernels.verifier.result import KernelResult, Status
from benchmarks.kernels.verifier.runner.launch import EvalConfig, RunnerOutcome, run_trusted
from benchmarks.kernels.verifier.runner.persistent import TrustedRunner
from benchmarks.kernels.verifier.static_checks import check_solution, format_violations
from benchmarks.kernels.tasks import KernelTask
from sandboxes.base import Sandbox
from sandboxes.errors import UserError
from sandboxes.targets.base import BuildOutcome, Target
from sandboxes.telemetry import emit

MAX_BUILD_ROUNDS = 4

__all__ = ["EvalConfig", "KernelResult", "Status", "evaluate", "default_sandbox"]


def default_sandbox() -> Sandbox:
    """The sandbox chosen by ``sandboxes.select.get_sandbox()`` (docker when it answers, else local)."""
    try:
        from sandboxes.select import get_sandbox
    except ImportError as error:
        raise UserError("no sandbox backend is installed (sandboxes.select is missing)") from error
    return get_sandbox()


def evaluate(task: KernelTask, solution_source: str, target: Target, *, sandbox: Sandbox | None = None,
             config: EvalConfig | None = None, trials: int | None = None,
             runner: TrustedRunner | None = None) -> KernelResult:
    """Verify and time one solution for ``task`` on ``target``; never raises for a bad solution.
    ``runner``: a persistent runner or ``VerifierPool`` (default: a fresh one-shot runner per candidate)."""
    config = config or EvalConfig()
    if trials is not None:
        config = config.model_copy(update={"trials": trials})
    started = time.perf_counter()
    result = _evaluate(task, solution_source, target, sandbox, config, runner.run if runner else run_trusted)
    result.seconds = time.perf_counter() - started
    if target.simulated:
        result.extras["simulated"] = True
    emit("kernel.evaluate", task=task.qualified_name, target=target.name, status=result.status.value,
         speedup=result.speedup, seconds=round(result.seconds, 3), phases=result.phases)
    return result


def _evaluate(task: KernelTask, source: str, target: Target, sandbox: Sandbox | None,
              config: EvalConfig, run_runner: Callable[..., RunnerOutcome]) -> KernelResult:
    name = task.qualified_name
    violations = check_solution(source, target) if config.static_checks else []
    if violations:
        return KernelResult(name, Status.REJECTED, reason=format_violations(violations), stage="static")
    target.availability().require_compile()
    sandbox = sandbox or default_sandbox()
    settings = target.runner_settings()
    for spec, certain in predicted_specs(source):  # cold start: build what the source evidently needs first
        build = target.build(spec, sandbox)
        if certain and not build.ok:
            return _build_failure(name, spec.name, build)
    for _ in range(MAX_BUILD_ROUNDS):
        outcome = run_runner(task.source, source, settings, target.cache_dir(), sandbox, config)
        if not outcome.needs_build:
            return _from_runner(name, outcome.result, target)
        for spec in outcome.specs:
            build = target.build(spec, sandbox)
            if not build.ok:
                return _build_failure(name, spec.name, build)
            if not build.loadable:
                return KernelResult(name, Status.NOT_RUN, reason=build.note, compiled=True)
    return KernelResult(name, Status.CRASHED, compiled=True,
                        reason="the solution keeps asking for new builds: its extension sources change between runs")


def _build_failure(name: str, extension: str, build: BuildOutcome) -> KernelResult:
    """A build that did not pass: refused by the native check (rejected) or failed to compile (compile_error)."""
    status = Status.REJECTED if build.rejected else Status.COMPILE_ERROR
    return KernelResult(name, status, reason=f"{extension}: {build.error}", compiled=build.rejected, stage="build")


def _from_runner(name: str, result: dict, target: Target) -> KernelResult:
    try:
        status = Status(result.get("status", "crashed"))
    except ValueError:
        status = Status.CRASHED
    flags = list(result.get("flags", []))
    return KernelResult(
        task=name, status=status, reason=str(result.get("reason", "")), runtime_ms=result.get("runtime_ms"),
        reference_ms=result.get("reference_ms"), runtime_spread_ms=result.get("runtime_spread_ms"),
        reference_spread_ms=result.get("reference_spread_ms"), trials=int(result.get("trials", 0)),
        timed_trials=int(result.get("timed_trials", 0)), flags=flags,
        extras=target.row_extras(result.get("extras", {})), compiled=status is not Status.COMPILE_ERROR,
        phases=dict(result.get("phases", {})), stage=str(result.get("stage", "")),
        evidence=dict(result.get("evidence", {})))


def evaluate_file(task: KernelTask, solution_path: str | Path, target: Target, **kwargs) -> KernelResult:
    """:func:`evaluate` for a solution file on disk (unreadable files are a crash with the reason)."""
    try:
        source = Path(solution_path).read_text()
    except (OSError, UnicodeDecodeError) as error:
        return KernelResult(task.qualified_name, Status.CRASHED, reason=f"cannot read solution: {error}")
    return evaluate(task, source, target, **kwargs)
