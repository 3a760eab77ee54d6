"""What the selftest's attack cases share: the case record, tight limits, a Python job, a summary of flags."""

from __future__ import annotations

import textwrap
import uuid
from dataclasses import dataclass
from typing import Callable

from sandboxes.base import Limits, RunResult, Sandbox

TIGHT = Limits(wall_s=3.0, cpu_s=3.0, memory_mb=256, pids=32, output_bytes=65536, disk_mb=32)


@dataclass
class Attack:
    """One adversarial program and the check of its outcome: ``run(sandbox, marker) -> (contained, detail)``."""

    name: str
    run: Callable[[Sandbox, str], tuple[bool, str]]


def new_marker() -> str:
    """A fresh token for a case's file names and secrets."""
    return f"akmark{uuid.uuid4().hex[:16]}"


def python_job(sandbox: Sandbox, code: str, marker: str, limits: Limits = TIGHT, **kwargs) -> RunResult:
    """Run ``code`` (dedented) with the sandbox's ``python``."""
    return sandbox.run(["python", "-c", textwrap.dedent(code) + f"\n# {marker}\n"], limits=limits, **kwargs)


def flags(result: RunResult) -> str:
    """One line: return code, the limit flags that are set, wall, CPU and peak memory."""
    names = ("timed_out", "cpu_exceeded", "oom_killed", "disk_full", "stdout_truncated")
    set_flags = [n for n in names if getattr(result, n)]
    error = f" sandbox_error={result.sandbox_error!r}" if result.sandbox_error else ""
    return (f"rc={result.returncode} flags={','.join(set_flags) or 'none'} wall={result.wall_s:.2f}s "
            f"cpu={result.cpu_s:.2f}s peak={result.peak_memory_mb:.0f}MiB{error}")
