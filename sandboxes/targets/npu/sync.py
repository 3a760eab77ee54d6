"""Explicit synchronisation: PipeBarrier and SetFlag/WaitFlag on hardware events."""

from __future__ import annotations

from enum import Enum

from sandboxes.targets.npu.errors import ParamError, QueueError
from sandboxes.targets.npu.runtime import current_core

_PIPE = {"S": "SCALAR", "V": "VEC", "M": "CUBE", "MTE1": "MTE1", "MTE2": "MTE2", "MTE3": "MTE3", "FIX": "FIX"}


class HardEvent(str, Enum):
    """``SRC_DST`` pipe pairs: SetFlag fires when SRC's earlier work is done, WaitFlag holds DST."""

    MTE2_V = "MTE2_V"
    V_MTE3 = "V_MTE3"
    MTE3_MTE2 = "MTE3_MTE2"
    MTE3_V = "MTE3_V"
    V_MTE2 = "V_MTE2"
    MTE2_MTE1 = "MTE2_MTE1"
    MTE1_M = "MTE1_M"
    M_FIX = "M_FIX"
    FIX_M = "FIX_M"
    MTE2_S = "MTE2_S"
    S_V = "S_V"
    V_S = "V_S"
    S_MTE2 = "S_MTE2"
    MTE3_S = "MTE3_S"


def _pipes(event) -> tuple[str, str]:
    src, _, dst = HardEvent(event).value.rpartition("_")
    return _PIPE[src], _PIPE[dst]


def PipeBarrier(pipe: str = "PIPE_ALL") -> None:
    """``PipeBarrier<PIPE_ALL>``: nothing starts until all issued work has finished."""
    if pipe != "PIPE_ALL":
        return  # a single-pipe barrier orders one in-order pipe, which the model already does
    core = current_core()
    core.timeline.barrier()
    for slot in core.local_slots:
        slot.synced = True


def SetFlag(event, event_id: int = 0) -> None:
    if not 0 <= int(event_id) <= 7:
        raise ParamError(f"event id must be in [0, 7], got {event_id}")
    core = current_core()
    src, _ = _pipes(event)
    key = (HardEvent(event).value, int(event_id))
    if key in core.flags:
        raise QueueError(f"SetFlag({key[0]}, {key[1]}) twice without WaitFlag: the result is undefined on the chip")
    core.flags[key] = max(core.timeline.pipe_free[src], core.timeline.issue)


def WaitFlag(event, event_id: int = 0) -> None:
    core = current_core()
    src, dst = _pipes(event)
    key = (HardEvent(event).value, int(event_id))
    if key not in core.flags:
        raise QueueError(f"WaitFlag({key[0]}, {key[1]}) with no SetFlag before it: the chip would hang")
    core.timeline.wait_pipe(dst, core.flags.pop(key))
    for slot in core.local_slots:
        if slot.writer_pipe == src:
            slot.synced = True
