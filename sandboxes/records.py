"""Turn a supervised run's raw facts into the public RunResult and report it to the current run."""

from __future__ import annotations

from typing import Sequence

from sandboxes.base import RunResult
from sandboxes.monitor import Outcome
from sandboxes.telemetry import emit


def build_result(outcome: Outcome, *, backend: str, peak_memory_bytes: int, oom_killed: bool, disk_full: bool,
                 files: dict[str, bytes], notes: list[str]) -> RunResult:
    """Decode the captured streams and combine the flags."""
    return RunResult(
        returncode=outcome.returncode,
        stdout=outcome.stdout.decode("utf-8", errors="replace"),
        stderr=outcome.stderr.decode("utf-8", errors="replace"),
        stdout_truncated=outcome.stdout_truncated,
        stderr_truncated=outcome.stderr_truncated,
        wall_s=round(outcome.wall_s, 4),
        cpu_s=round(outcome.cpu_s, 4),
        peak_memory_mb=round(peak_memory_bytes / 2**20, 2),
        timed_out=outcome.timed_out,
        oom_killed=oom_killed,
        cpu_exceeded=outcome.cpu_exceeded,
        disk_full=disk_full or outcome.disk_exceeded,
        files=files,
        backend=backend,
        notes=notes,
    )


def report(result: RunResult, argv: Sequence[str]) -> RunResult:
    """Emit a ``sandbox.result`` event (no-op outside a run) and return ``result``."""
    emit("sandbox.result", backend=result.backend, command=list(argv)[:3], returncode=result.returncode,
         wall_s=result.wall_s, cpu_s=result.cpu_s, peak_memory_mb=result.peak_memory_mb,
         timed_out=result.timed_out, oom_killed=result.oom_killed, cpu_exceeded=result.cpu_exceeded,
         disk_full=result.disk_full, stdout_truncated=result.stdout_truncated,
         stderr_truncated=result.stderr_truncated, sandbox_error=result.sandbox_error)
    return result
