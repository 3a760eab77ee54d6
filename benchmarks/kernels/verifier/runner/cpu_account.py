"""CPU a worker spends outside its calls, read by the runner from ``/proc`` (which the worker cannot forge).

Native code in the solution's worker reaches every function of the process (the Python C API included) without
naming it, so whatever the worker runs once a call has returned can do the kernel's work off the clock: the
hand-over of the output, the preparation of the next call, or work simply left running when the reply went out. A
SIGSEGV handler on protected output pages computed a matmul during the hand-over: correct at 4.1x, with no flag.
Both workers answer the same commands outside their calls, so over the timed rounds the solution's worker may spend
little more CPU there than the reference's (:func:`off_the_clock`). The runner reads the solution's output out of its
memory, so the reference's copies of its output are left out of its side: a profile hook had swapped the worker's
copy for the kernel's work, at the copy's CPU (ReLU correct at 3.7x).
"""

from __future__ import annotations

import contextlib
import os
from typing import Iterator

OUTSIDE_FACTOR = 1.25
"""The solution's worker may spend this many times the reference's CPU outside the calls, the reference's copies of
its output left out (honest code, 23 builtin cpu references: 0.89 to 1.14, at 12 to 17 ms over the rounds; with the
worker's own copies counted on both sides, 0.71 to 1.08 on KernelBench's level 1 with the torch baseline as the
solution)..."""
OUTSIDE_SLACK_MS, OUTSIDE_ROUND_SLACK_MS = 2.0, 0.02
"""...plus this much, and this much per round (a page fault, an allocator's trim). What this leaves can be moved off
the clock: about 0.1 ms a round, the worker's answers to the runner being all it does there."""


def cpu_ns(pid: int) -> int | None:
    """CPU time of every thread of ``pid`` so far, in ns (``/proc/<pid>/task/*/schedstat``); None if unreadable."""
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
        total = 0
        for task in tasks:
            with open(f"/proc/{pid}/task/{task}/schedstat") as handle:
                total += int(handle.read().split()[0])
        return total
    except (OSError, ValueError, IndexError):
        return None


class CpuAccount:
    """One worker's CPU over a phase, less the windows that are its own calls."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.start = cpu_ns(pid)
        self.calls_ns = 0
        self.hand_over_ns = 0
        """CPU of the worker's copies of its output into the shared region (part of the outside CPU; the reference's
        is left out of its side when the runner reads the solution's output itself)."""
        self._depth = 0

    @contextlib.contextmanager
    def call(self) -> Iterator[None]:
        """A window whose CPU is the worker's call (not counted as outside); a window inside another counts once."""
        self._depth += 1
        before = cpu_ns(self.pid) if self._depth == 1 else None
        try:
            yield
        finally:
            self._depth -= 1
            after = cpu_ns(self.pid) if before is not None else None
            if before is not None and after is not None:
                self.calls_ns += after - before

    def add_hand_over(self, cpu_ns_spent: int) -> None:
        """The CPU one copy of the output took, as the (reference's, trusted) worker measured it."""
        self.hand_over_ns += max(0, int(cpu_ns_spent))

    def outside_ms(self, less_hand_over: bool = False) -> float | None:
        """CPU outside the calls since the account opened, in ms (None where /proc could not be read); without the
        copies of the output when ``less_hand_over``."""
        now = cpu_ns(self.pid)
        if self.start is None or now is None:
            return None
        return max(0, now - self.start - self.calls_ns - (self.hand_over_ns if less_hand_over else 0)) / 1e6


def off_the_clock(solution_ms: float | None, reference_ms: float | None, rounds: int) -> str:
    """Why the solution's CPU outside its calls is too much against the reference's, or ''."""
    if solution_ms is None or reference_ms is None:
        return ""
    allowed = OUTSIDE_FACTOR * reference_ms + OUTSIDE_SLACK_MS + OUTSIDE_ROUND_SLACK_MS * rounds
    if solution_ms <= allowed:
        return ""
    return (f"the solution's worker spent {solution_ms:.1f} ms of CPU outside its calls over {rounds} rounds, the "
            f"reference's {reference_ms:.1f} ms (at most {allowed:.1f} ms allowed): work done after a call returned "
            "(in the hand-over of its output, before the next call, or left running) is work off the clock")
