"""TPipe, TQue and TBuf: on-chip buffer allocation and the queue protocol between pipes."""

from __future__ import annotations

from collections import deque

import numpy as np

from sandboxes.targets.npu.dtypes import itemsize
from sandboxes.targets.npu.errors import CapacityError, ParamError, QueueError, QueuePositionError
from sandboxes.targets.npu.runtime import CoreContext, current_core
from sandboxes.targets.npu.tensors import BUFFER_OF, CUBE_POSITIONS, UB_POSITIONS, AtPosition, LocalTensor, TPosition
from sandboxes.targets.npu.timeline import Slot


class _Buffer:
    """One allocated region; ``generation`` changes on every AllocTensor so stale tensors are caught."""

    __slots__ = ("start", "nbytes", "slot", "generation", "live", "retired")

    def __init__(self, start: int, nbytes: int, slot: Slot):
        self.start, self.nbytes, self.slot = start, nbytes, slot
        self.generation = 0
        self.live = False
        self.retired = False  # the block that allocated it has ended


def _position_name(position) -> str:
    name = position.value if isinstance(position, TPosition) else str(position)
    if name not in BUFFER_OF:
        raise QueuePositionError(f"unknown TPosition {position!r}; use one of {sorted(BUFFER_OF)}")
    return name


def _check_core_type(core: CoreContext, position: str) -> None:
    if not core.chip.separated or core.kernel_type == "MIX":
        return
    if core.kernel_type == "AIV_ONLY" and position in CUBE_POSITIONS:
        raise QueuePositionError(
            f"position {position} ({BUFFER_OF[position]}) is on the cube core, but this kernel runs on vector "
            f"cores (AIV_ONLY): use VECIN/VECOUT/VECCALC, or declare @kernel(core_type='AIC_ONLY' or 'MIX')")
    if core.kernel_type == "AIC_ONLY" and position in UB_POSITIONS:
        raise QueuePositionError(
            f"position {position} (UB) is on the vector core, but this kernel runs on cube cores (AIC_ONLY): "
            f"use A1/B1/A2/B2/CO1, or declare @kernel(core_type='MIX')")


class TPipe:
    """Owns the on-chip memory of one core; ``InitBuffer`` carves queues and TBufs out of it."""

    def __init__(self):
        self._core = current_core()

    def InitBuffer(self, target, num: int, length: int | None = None) -> None:
        """``InitBuffer(que, num, len)`` gives a queue ``num`` buffers of ``len`` bytes; ``InitBuffer(tbuf, len)``."""
        if isinstance(target, TBuf):
            num, length = 1, num if length is None else length
        elif not isinstance(target, TQue):
            raise ParamError(f"InitBuffer takes a TQue or a TBuf, got {type(target).__name__}")
        if length is None or int(length) <= 0 or int(num) <= 0:
            raise ParamError(f"InitBuffer needs a positive buffer count and byte length, got num={num}, len={length}")
        if target._buffers:
            raise QueueError(f"InitBuffer called twice on the same {target.position} queue")
        if self._core is not current_core():
            raise ParamError("InitBuffer on a TPipe made by another block or launch: a TPipe owns the memory of the "
                             "core that made it; make one in each kernel call")
        core, position = self._core, target.position
        _check_core_type(core, position)
        self._check_counts(position, int(num))
        target._buffers = [self._allocate(position, int(length)) for _ in range(int(num))]
        if isinstance(target, TQue):
            target._free = deque(target._buffers)

    def _check_counts(self, position: str, num: int) -> None:
        counts, chip = self._core.buffers_per_position, self._core.chip
        if counts.get(position, 0) + num > chip.max_buffers_per_position:
            raise CapacityError(
                f"{counts.get(position, 0) + num} queue buffers at position {position}: at most "
                f"{chip.max_buffers_per_position} per position (one event id each); use fewer buffers or queues")
        if sum(counts.values()) + num > chip.max_buffers_total:
            raise CapacityError(f"more than {chip.max_buffers_total} queue buffers in one kernel")
        counts[position] = counts.get(position, 0) + num

    def _allocate(self, position: str, length: int) -> _Buffer:
        core, buffer = self._core, BUFFER_OF[position]
        align = core.chip.buffer_alignment(buffer)
        start = -(-core.used.get(buffer, 0) // align) * align
        nbytes = -(-length // 32) * 32
        capacity = core.chip.buffer_capacity(buffer)
        core.allocations.append((position, buffer, nbytes))
        if start + nbytes > capacity:
            detail = ", ".join(f"{p} {n} B" for p, b, n in core.allocations if b == buffer)
            raise CapacityError(
                f"{buffer} overflow: buffers need {start + nbytes} B ({detail}) but {buffer} holds {capacity} B "
                f"on {core.chip.name}; reduce the tile length or the buffer count")
        core.used[buffer] = start + nbytes
        if buffer not in core.memory:
            core.memory[buffer] = np.full(capacity, 0xFF, dtype=np.uint8)  # garbage: NaN for floats
        slot = Slot(f"{position} buffer at {buffer}+{start}")
        core.local_slots.append(slot)
        core.local_buffers.append(_Buffer(start, nbytes, slot))
        return core.local_buffers[-1]


class TQue(AtPosition):
    """A queue at one TPosition: AllocTensor → (write) → EnQue → DeQue → (read) → FreeTensor."""

    def __init__(self, position, depth: int = 1):
        self._position = _position_name(position)
        self.depth = int(depth)
        self._buffers: list[_Buffer] = []
        self._free: deque[_Buffer] = deque()
        self._queued: deque[LocalTensor] = deque()

    def AllocTensor(self, dtype) -> LocalTensor:
        if not self._buffers:
            raise QueueError(f"AllocTensor on a {self.position} queue before pipe.InitBuffer(queue, num, len)")
        if not self._free:
            raise QueueError(
                f"AllocTensor on a {self.position} queue whose {len(self._buffers)} buffer(s) are all in use "
                f"(the chip would hang): FreeTensor a tensor first, or InitBuffer with more buffers")
        buf = self._free.popleft()
        buf.generation += 1
        buf.live = True
        core = current_core()
        return LocalTensor(core.memory[BUFFER_OF[self.position]], buf.start, buf.nbytes // itemsize(dtype),
                           dtype, buf.slot, buf, self.position)

    def EnQue(self, tensor: LocalTensor) -> None:
        self._check_own(tensor, "EnQue")
        if len(self._queued) >= self.depth:
            raise QueueError(f"EnQue past depth {self.depth} on a {self.position} queue: DeQue before the next EnQue")
        tensor._slot.synced = True
        self._queued.append(tensor)

    def DeQue(self, dtype=None) -> LocalTensor:
        if not self._queued:
            raise QueueError(f"DeQue of an empty {self.position} queue (the chip would hang): EnQue a tensor first")
        tensor = self._queued.popleft()
        return tensor if dtype is None else tensor.ReinterpretCast(dtype)

    def FreeTensor(self, tensor: LocalTensor) -> None:
        self._check_own(tensor, "FreeTensor")
        if any(t._owner is tensor._owner for t in self._queued):
            raise QueueError(f"FreeTensor of a {self.position} tensor that is still enqueued: DeQue it first")
        tensor._owner.live = False
        self._free.append(tensor._owner)

    def _check_own(self, tensor: LocalTensor, what: str) -> None:
        if not isinstance(tensor, LocalTensor) or tensor._owner not in self._buffers:
            raise QueueError(f"{what} of a tensor that was not allocated from this {self.position} queue")
        tensor._check_live()


class TBuf(AtPosition):
    """A scratch buffer at one position (VECCALC by default), taken whole or in part with ``Get``."""

    def __init__(self, position=TPosition.VECCALC):
        self._position = _position_name(position)
        self._buffers: list[_Buffer] = []

    def Get(self, dtype, count: int | None = None) -> LocalTensor:
        if not self._buffers:
            raise QueueError(f"TBuf.Get before pipe.InitBuffer(tbuf, len) at {self.position}")
        buf = self._buffers[0]
        buf.live = True
        size = buf.nbytes // itemsize(dtype) if count is None else int(count)
        if size * itemsize(dtype) > buf.nbytes:
            raise CapacityError(f"TBuf.Get({size}) needs {size * itemsize(dtype)} B but the TBuf holds {buf.nbytes} B")
        return LocalTensor(current_core().memory[BUFFER_OF[self.position]], buf.start, size, dtype,
                           buf.slot, buf, self.position)
