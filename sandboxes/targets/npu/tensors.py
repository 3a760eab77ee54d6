"""GlobalTensor (global memory) and LocalTensor (a typed view of an on-chip buffer)."""

from __future__ import annotations

from enum import Enum

import numpy as np

from sandboxes.targets.npu.dtypes import dtype_name, np_dtype
from sandboxes.targets.npu.errors import AlignmentError, OutOfBoundsError, ParamError, UseAfterFreeError
from sandboxes.targets.npu.runtime import GmAddr, current_core
from sandboxes.targets.npu.timeline import Slot


GM_SCALAR_BYTES = 32
"""Global-memory bytes one scalar GetValue/SetValue moves: one 32-byte block, as the smallest DataCopy (they
counted nothing, so scalar reads of GM escaped the bandwidth floor)."""


class TPosition(str, Enum):
    """Logical positions of Ascend C; each lives in one physical buffer (see BUFFER_OF)."""

    GM = "GM"
    VECIN = "VECIN"
    VECOUT = "VECOUT"
    VECCALC = "VECCALC"
    A1 = "A1"
    B1 = "B1"
    C1 = "C1"
    A2 = "A2"
    B2 = "B2"
    CO1 = "CO1"


BUFFER_OF = {"VECIN": "UB", "VECOUT": "UB", "VECCALC": "UB", "A1": "L1", "B1": "L1", "C1": "L1",
             "A2": "L0A", "B2": "L0B", "CO1": "L0C"}
UB_POSITIONS = frozenset({"VECIN", "VECOUT", "VECCALC"})
CUBE_POSITIONS = frozenset({"A1", "B1", "C1", "A2", "B2", "CO1"})


class GlobalTensor:
    """A typed window on global memory, set with ``SetGlobalBuffer(addr, size)``."""

    def __init__(self, dtype=None):
        self._dtype = dtype_name(dtype) if dtype is not None else None
        self._addr: GmAddr | None = None
        self._size = 0

    def SetGlobalBuffer(self, addr: GmAddr, size: int | None = None) -> None:
        if not isinstance(addr, GmAddr):
            raise ParamError(f"SetGlobalBuffer takes a GM_ADDR kernel argument (plus an offset), got {type(addr).__name__}")
        if self._dtype is not None and self._dtype != addr.dtype:
            raise ParamError(f"GlobalTensor of {self._dtype} set on a {addr.dtype} GM buffer: declare the matching type")
        available = addr.base.size - addr.offset
        size = available if size is None else int(size)
        if addr.offset < 0 or size < 0 or size > available:
            raise OutOfBoundsError(
                f"SetGlobalBuffer(offset {addr.offset}, size {size}) runs past the GM buffer of {addr.base.size} "
                f"elements: check the per-block offset (GetBlockIdx() * length) and the tiling")
        self._dtype, self._addr, self._size = addr.dtype, addr, size

    @property
    def dtype(self) -> str:
        self._require()
        return self._dtype

    def GetSize(self) -> int:
        return self._size

    def __getitem__(self, offset: int) -> "GlobalTensor":
        """``gm[offset]`` is the tensor that starts ``offset`` elements further on (Ascend C semantics)."""
        self._require()
        sub = GlobalTensor(self._dtype)
        sub.SetGlobalBuffer(self._addr + int(offset), self._size - int(offset))
        return sub

    def GetValue(self, index: int):
        self._require()
        core = current_core()
        core.timeline.scalar_access("GM.GetValue", core.gm_slot(self._addr), core.chip.dma_latency_cycles)
        core.gm_read += GM_SCALAR_BYTES
        span = self._span(index, 1)
        self._touch(span, False, "GetValue")
        return span[0].item()

    def SetValue(self, index: int, value) -> None:
        self._require()
        core = current_core()
        core.timeline.scalar_access("GM.SetValue", core.gm_slot(self._addr), core.chip.dma_latency_cycles, write=True)
        core.gm_write += GM_SCALAR_BYTES
        span = self._span(index, 1)
        span[0] = value
        self._touch(span, True, "SetValue")

    def _touch(self, view: np.ndarray, write: bool, what: str) -> None:
        """Note the elements of ``view`` (a view of this tensor's span) as written by this block, or check that
        none of them was written by another block of the launch (for a write too: two blocks writing the same
        bytes race); simulator internal."""
        core = current_core()
        if write:
            core.launch.wrote(core.block_idx, self._addr.base, view, what)
        else:
            core.launch.check_read(core.block_idx, self._addr.base, view, what)

    def _span(self, start: int, count: int) -> np.ndarray:
        """The numpy view of ``count`` elements from ``start``; simulator internal."""
        self._require()
        if start < 0 or count < 0 or start + count > self._size:
            raise OutOfBoundsError(
                f"access of elements [{start}, {start + count}) on a GlobalTensor of {self._size} elements")
        begin = self._addr.offset + start
        return self._addr.base[begin:begin + count]

    def _require(self) -> None:
        if self._addr is None:
            raise ParamError("GlobalTensor used before SetGlobalBuffer")


def rows_view(span: np.ndarray, rows: int, cols: int, pitch: int) -> np.ndarray:
    """A (rows, cols) view of the 1-D ``span`` with ``pitch`` elements between row starts; simulator internal.
    ``span`` must hold at least ``(rows - 1) * pitch + cols`` elements (numpy refuses a view past its end).
    Same as ``as_strided`` on a contiguous span, several times cheaper per call."""
    if not span.flags.c_contiguous:
        return np.lib.stride_tricks.as_strided(span, (rows, cols), (pitch * span.itemsize, span.itemsize))
    return np.ndarray((rows, cols), span.dtype, span, 0, (pitch * span.itemsize, span.itemsize))


class AtPosition:
    """Something that lives at one TPosition, fixed when it is made (a kernel cannot relabel UB memory as L0A)."""

    __slots__ = ()

    @property
    def position(self) -> str:
        """Where it lives (VECIN, A1, CO1, ...)."""
        return self._position


class LocalTensor(AtPosition):
    """A typed view of part of one queue buffer (or TBuf) in UB, L1, L0A, L0B or L0C."""

    __slots__ = ("_raw", "_start", "_size", "_dtype", "_np", "_slot", "_owner", "_generation", "_aligned",
                 "_position")

    def __init__(self, raw: np.ndarray, start: int, size: int, dtype, slot: Slot, owner, position: str):
        self._raw = raw
        self._start = start
        self._size = size
        self._dtype = dtype_name(dtype)
        self._np = np_dtype(self._dtype)
        self._slot = slot
        self._owner = owner
        self._generation = owner.generation
        self._aligned = start % current_core().alignment[BUFFER_OF[position]] == 0
        self._position = position

    @property
    def dtype(self) -> str:
        return self._dtype

    @property
    def buffer(self) -> str:
        return BUFFER_OF[self.position]

    def GetSize(self) -> int:
        return self._size

    def __getitem__(self, offset: int) -> "LocalTensor":
        """``t[offset]`` is the tensor that starts ``offset`` elements further on (Ascend C semantics)."""
        offset = int(offset)
        if offset < 0 or offset > self._size:
            raise OutOfBoundsError(f"sub-tensor offset {offset} outside a LocalTensor of {self._size} elements")
        return self._derive(self._start + offset * self._np.itemsize, self._size - offset, self._dtype)

    def ReinterpretCast(self, dtype) -> "LocalTensor":
        """The same bytes seen as another element type."""
        nbytes = self._size * np_dtype(self._dtype).itemsize
        return self._derive(self._start, nbytes // np_dtype(dtype).itemsize, dtype)

    def GetValue(self, index: int):
        self._check_live()
        core = current_core()
        core.timeline.scalar_access("GetValue", self._slot, core.chip.scalar_sync_cycles)
        return self._span(int(index), 1)[0].item()

    def SetValue(self, index: int, value) -> None:
        self._check_live()
        core = current_core()
        core.timeline.scalar_access("SetValue", self._slot, core.chip.scalar_sync_cycles, write=True)
        self._span(int(index), 1)[0] = value

    def _derive(self, start: int, size: int, dtype) -> "LocalTensor":
        self._check_live()
        sub = LocalTensor(self._raw, start, size, dtype, self._slot, self._owner, self.position)
        sub._generation = self._generation
        return sub

    def _check_live(self) -> None:
        if self._owner.retired:
            raise UseAfterFreeError(f"a {self.position} tensor of a block that has ended is used: on-chip memory "
                                    "belongs to the block (core) that allocated it, for that block only")
        if self._owner.generation != self._generation or not self._owner.live:
            raise UseAfterFreeError(
                f"a {self.position} tensor is used after FreeTensor returned its buffer: "
                f"AllocTensor (or DeQue) a fresh tensor and stop using the freed one")

    def _span(self, start: int, count: int) -> np.ndarray:
        """The numpy view of ``count`` elements from ``start``; simulator internal."""
        if self._owner.generation != self._generation or not self._owner.live:
            self._check_live()
        if start < 0 or count < 0 or start + count > self._size:
            raise OutOfBoundsError(
                f"access of elements [{start}, {start + count}) on a {self.position} tensor of {self._size} elements "
                f"({self.buffer}); shrink the count or allocate a larger buffer")
        size = self._np.itemsize
        begin = self._start + start * size
        return self._raw[begin:begin + count * size].view(self._np)

    def _require_alignment(self, what: str) -> None:
        if self._aligned:
            return
        align = current_core().alignment[BUFFER_OF[self.position]]
        if self._start % align:
            raise AlignmentError(
                f"{what}: {self.buffer} operand starts at byte {self._start}, not a multiple of {align} B; "
                f"use sub-tensor offsets of whole {align}-byte blocks")
