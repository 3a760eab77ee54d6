"""What evaluating one kernel solution produced: a status per verifier stage and feedback text."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class Status(str, Enum):
    """Verifier outcome; the first failing stage names it."""

    REJECTED = "rejected"
    """Static checks (or runtime hack detection) refused the solution."""
    COMPILE_ERROR = "compile_error"
    INCORRECT = "incorrect"
    CRASHED = "crashed"
    TIMEOUT = "timeout"
    CORRECT = "correct"
    NOT_RUN = "not_run"
    """Compiled, but this machine cannot run it (e.g. CUDA without a GPU); never counted correct."""
    SANDBOX_ERROR = "sandbox_error"
    """The sandbox could not run the trusted runner (it did not start, or the backend failed): says nothing about
    the solution, so it is never counted as a wrong kernel, learnt from or rewarded."""
    TASK_ERROR = "task_error"
    """The task cannot judge any kernel (its reference gives different outputs for the same inputs): says nothing
    about the solution either; EvoKernel stops the task with the reason."""


SPEEDUP_REVIEW_THRESHOLD = 10.0
"""Speedups above this are flagged for human review (the Sakana "150x" lesson)."""


@dataclass
class KernelResult:
    """One solution's verdict; :meth:`to_row` gives the harness's report row."""

    task: str
    status: Status
    reason: str = ""
    """Feedback an agent can act on: the failing check, trimmed compiler errors, mismatch detail."""
    runtime_ms: float | None = None
    reference_ms: float | None = None
    runtime_spread_ms: float | None = None
    """Inter-quartile range of the solution's timed trials."""
    reference_spread_ms: float | None = None
    trials: int = 0
    """Correctness trials that passed."""
    timed_trials: int = 0
    flags: list[str] = field(default_factory=list)
    """Review flags such as ``speedup>10x``; they do not change the status."""
    extras: dict[str, Any] = field(default_factory=dict)
    """Target extras passed through to the row (e.g. simulated, cycles, bottleneck, roofline_fraction)."""
    compiled: bool = False
    """True when every native build of the solution succeeded (or none was needed)."""
    seconds: float = 0.0
    """Wall time the whole evaluation took."""
    phases: dict[str, float] = field(default_factory=dict)
    """Seconds per runner phase (startup, load, correctness, timing), for throughput work."""
    stage: str = ""
    """The verifier stage that decided the status: static, build, load, run, correctness, precision, output,
    mutation, tripwire, isolation, reference (the task's own reference failed), timing or verdict (the host
    refused the runner's answer); '' when unknown."""
    evidence: dict[str, Any] = field(default_factory=dict)
    """What the runtime checks saw: the solution worker's confinement, outputs checked, precision errors in
    eps against float64, the tripwire's operator counts (see ``runner.trusted.Runner.collect_evidence``)."""

    @property
    def correct(self) -> bool:
        """True only when every correctness trial passed."""
        return self.status is Status.CORRECT

    @property
    def speedup(self) -> float | None:
        """reference_ms / runtime_ms, or None when either side was not timed."""
        if not self.runtime_ms or self.reference_ms is None or not self.correct:
            return None
        return self.reference_ms / self.runtime_ms

    def to_row(self) -> dict[str, Any]:
        """The row shape of ``agent bench kernels``: task, status, correct, reason, speedup, times, extras."""
        row: dict[str, Any] = {
            "task": self.task, "status": self.status.value, "correct": self.correct, "reason": self.reason,
            "speedup": _round(self.speedup), "runtime_ms": _round(self.runtime_ms),
            "reference_ms": _round(self.reference_ms),
        }
        if self.stage:
            row["stage"] = self.stage
        if self.flags:
            row["flags"] = ",".join(self.flags)
        row.update(self.extras)
        return row


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)
