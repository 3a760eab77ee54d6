"""Kernel verification as executor jobs: what one verification occupies and the function its node runs.

The job carries the task, the solution's text (read by the driver: a node of a cluster need not see the
driver's files), the target and the verifier settings; the node verifies it in its own sandbox, through
its own warm verifier pool when the run asked for persistent runners.
"""

from __future__ import annotations

import dataclasses
import hashlib
from pathlib import Path
from typing import Callable, Sequence

from benchmarks.executor.base import Executor, Job, Needs, Place, run_all
from benchmarks.kernels.tasks import KernelTask
from benchmarks.kernels.verifier.harness import EvalConfig, evaluate
from benchmarks.kernels.verifier.result import KernelResult, Status
from benchmarks.kernels.verifier.runner.persistent import VerifierPool
from sandboxes.targets.base import Target

VERIFIERS = "kernels.verifiers"
"""The name a place keeps its verifier pool under."""
TARGET_NEEDS = {"gpu": Needs(gpus=1), "ascendc": Needs(npus=1)}
"""Hardware beyond CPUs per target: a gpu evaluation asks for a GPU, an Ascend one for an ``NPU``
(the simulated ``npu`` target runs on CPUs)."""


def verification_needs(target: Target, config: EvalConfig) -> Needs:
    """What one verification on ``target`` occupies: its threads as CPUs, and the target's accelerator."""
    return dataclasses.replace(TARGET_NEEDS.get(target.name, Needs()), cpus=float(max(1, config.threads)))


def verify_on(place: Place, task: KernelTask, source: str, target: Target, config: EvalConfig,
              persistent: bool) -> KernelResult:
    """Verify ``source`` for ``task`` on ``place``: its sandbox, and its verifier pool when ``persistent``."""
    runner = place.keep(VERIFIERS, VerifierPool) if persistent else None
    return evaluate(task, source, target, sandbox=place.sandbox_or_default(), config=config, runner=runner)


def unreadable(place: Place, task_name: str, reason: str) -> KernelResult:
    """The verdict of a solution file the driver could not read (a crash, with the reason)."""
    return KernelResult(task_name, Status.CRASHED, reason=f"cannot read solution: {reason}")


def verification_job(task: KernelTask, source: str, target: Target, config: EvalConfig,
                     persistent: bool) -> Job:
    """One verification as a job keyed by task and solution text."""
    key = f"{task.qualified_name}@{hashlib.sha256(source.encode()).hexdigest()[:12]}"
    return Job(key, verify_on, (task, source, target, config, persistent), verification_needs(target, config))


def file_job(task: KernelTask, path: Path, target: Target, config: EvalConfig, persistent: bool) -> Job:
    """:func:`verification_job` for a solution file (read here, in the driver)."""
    try:
        source = Path(path).read_text()
    except (OSError, UnicodeDecodeError) as error:
        return Job(f"{task.qualified_name}@{Path(path).name}", unreadable, (task.qualified_name, str(error)),
                   verification_needs(target, config))
    return verification_job(task, source, target, config, persistent)


def verify_files(pairs: Sequence[tuple[KernelTask, Path]], target: Target, executor: Executor, place: Place,
                 config: EvalConfig, persistent: bool, width: int,
                 on_result: Callable[[int, int, KernelResult], None] | None = None) -> list[KernelResult]:
    """Verify every (task, solution file) through ``executor``; results keep the order of ``pairs``."""
    jobs = [file_job(task, path, target, config, persistent) for task, path in pairs]
    return run_all(executor, jobs, place=place, width=width, on_result=on_result)
