"""Per-core timing: each instruction is an event on one pipe, scheduled as a longest path.

The model, in full:

* A core has the pipes SCALAR, MTE2 (GM→local), MTE1 (L1→L0), VEC, CUBE, FIX (L0C→GM) and MTE3
  (UB→GM). Each pipe executes its events in program order; different pipes run concurrently.
* The scalar unit issues every instruction in program order, ``scalar_issue_cycles`` apart; an
  event cannot start before it is issued.
* Dependencies are the edges that Ascend C's queue events create. Every buffer allocation is a
  :class:`Slot`. A read waits for the slot's last write (EnQue→DeQue, ``SetFlag``→``WaitFlag``);
  a write waits for the slot's last write and last read (FreeTensor→AllocTensor buffer reuse).
* ``start = max(issue time, end of the previous event on the pipe, end of every dependency)`` and
  ``end = start + duration``. Since events are recorded in program order and every edge points
  backwards, computing this on the fly *is* the longest path through the event DAG.
* A scalar read of local memory (GetValue) stalls the scalar unit until the data is written, so
  later instructions issue late, as on the chip.

The same kernel and inputs give the same schedule: nothing here depends on wall-clock time.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sandboxes.targets.npu.errors import SyncError

PIPES = ("SCALAR", "MTE2", "MTE1", "VEC", "CUBE", "FIX", "MTE3")


class Slot:
    """One buffer region whose reads and writes order the pipes, with its race-check state."""

    __slots__ = ("name", "write_end", "read_end", "writer_pipe", "synced", "local")

    def __init__(self, name: str, local: bool = True):
        self.name = name
        self.write_end = 0.0
        self.read_end = 0.0
        self.writer_pipe: str | None = None
        self.synced = True
        self.local = local

    def check_read(self, pipe: str) -> None:
        """A read by another pipe than the last writer needs a queue event or a flag first."""
        if self.local and not self.synced and self.writer_pipe not in (None, pipe):
            raise SyncError(
                f"{pipe} reads {self.name} which {self.writer_pipe} wrote with no sync between them: "
                f"pass the tensor through a TQue (EnQue then DeQue) or use "
                f"SetFlag/WaitFlag(HardEvent.{_event_name(self.writer_pipe)}_{_event_name(pipe)})")


def _event_name(pipe: str) -> str:
    return {"VEC": "V", "CUBE": "M", "SCALAR": "S"}.get(pipe, pipe)


@dataclass
class Event:
    """One scheduled instruction, kept only when tracing."""

    name: str
    pipe: str
    start: float
    end: float
    nbytes: int = 0


@dataclass
class CoreTimeline:
    """The pipes of one core and the events scheduled on them."""

    issue_cycles: float = 1.0
    trace: bool = False
    pipe_free: dict[str, float] = field(default_factory=lambda: dict.fromkeys(PIPES, 0.0))
    busy: dict[str, float] = field(default_factory=lambda: dict.fromkeys(PIPES, 0.0))
    issue: float = 0.0
    instructions: int = 0
    events: list[Event] = field(default_factory=list)

    def record(self, name: str, pipe: str, duration: float, reads=(), writes=(), nbytes: int = 0) -> float:
        """Schedule one instruction; return its end cycle."""
        start = self.pipe_free[pipe]
        if self.issue > start:
            start = self.issue
        for slot in reads:
            if not slot.synced and slot.writer_pipe != pipe:
                slot.check_read(pipe)
            if slot.write_end > start:
                start = slot.write_end
        for slot in writes:
            if slot.write_end > start:
                start = slot.write_end
            if slot.read_end > start:
                start = slot.read_end
        end = start + duration
        self.pipe_free[pipe] = end
        self.busy[pipe] += duration
        self._issue_next()
        for slot in reads:
            if end > slot.read_end:
                slot.read_end = end
        for slot in writes:
            slot.write_end = end
            if slot.writer_pipe != pipe:
                slot.synced = False
            slot.writer_pipe = pipe
        if self.trace:
            self.events.append(Event(name, pipe, start, end, nbytes))
        return end

    def scalar_access(self, name: str, slot: Slot, cycles: float, write: bool = False) -> None:
        """GetValue/SetValue on local memory: the scalar unit waits for the data, then touches it."""
        start = max(self.issue, slot.write_end, slot.read_end if write else 0.0)
        end = start + cycles
        self.busy["SCALAR"] += cycles
        self.pipe_free["SCALAR"] = end
        self.issue = end
        if write:
            slot.write_end, slot.writer_pipe, slot.synced = end, "SCALAR", True
        else:
            slot.read_end = max(slot.read_end, end)
        if self.trace:
            self.events.append(Event(name, "SCALAR", start, end))

    def barrier(self) -> None:
        """PipeBarrier<PIPE_ALL>: every pipe waits until all earlier work has finished."""
        now = max(max(self.pipe_free.values()), self.issue)
        self.pipe_free = dict.fromkeys(PIPES, now)
        self.issue = now

    def wait_pipe(self, pipe: str, until: float) -> None:
        """WaitFlag: the waiting pipe starts nothing before ``until``."""
        self.pipe_free[pipe] = max(self.pipe_free[pipe], until)

    def _issue_next(self) -> None:
        self.issue += self.issue_cycles
        self.busy["SCALAR"] += self.issue_cycles
        self.instructions += 1

    @property
    def end(self) -> float:
        return max(max(self.pipe_free.values()), self.issue)
