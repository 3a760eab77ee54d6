"""Per-core execution context, global-memory addresses and the system variables of a kernel."""

from __future__ import annotations

import contextvars
from dataclasses import dataclass, field

import numpy as np

from sandboxes.targets.npu.chip import ChipConfig
from sandboxes.targets.npu.dtypes import dtype_name
from sandboxes.targets.npu.errors import NpuKernelError, ParamError
from sandboxes.targets.npu.timeline import CoreTimeline, Slot

GM_PATHS = ("GM->UB", "GM->L1", "GM->L0A", "GM->L0B", "UB->GM", "L0C->GM")


@dataclass
class LaunchState:
    """What the blocks of one launch share: which block wrote, and which read, each GM byte. Blocks run in parallel
    on the chip (the simulator runs them one after another), and nothing here orders one core's GM accesses before
    another's, so a block that reads or writes what another block wrote in the same launch races it, and so does a
    block that writes what another block read (the simulator's order gave the reader the old bytes). Bytes, not
    elements: a buffer may be written through one dtype's view and read through another's."""

    writers: dict[int, np.ndarray] = field(default_factory=dict)
    readers: dict[int, np.ndarray] = field(default_factory=dict)
    """Reader of each byte (block + 1; ``SEVERAL``: more than one block), for buffers this launch has written."""
    pending_reads: dict[int, list[tuple[int, np.ndarray]]] = field(default_factory=dict)
    """Reads (block, view) of buffers not written yet: their bytes are listed when the first write comes (most inputs
    never get one)."""

    def wrote(self, block: int, base: np.ndarray, view: np.ndarray, what: str) -> None:
        table, span = _grown(self.writers, base), byte_span(base, view)
        other = _other_writer(table[span], block)
        if other is not None:
            raise NpuKernelError(f"{what} writes GM that block {other} wrote in this launch: blocks run in "
                                 "parallel on the chip, so which write lands last is a race; give each block its own "
                                 "part of the output")
        table[span] = block + 1
        other = _other_writer(self._readers(base)[span], block)
        if other is not None:
            reader = "several blocks" if other == SEVERAL - 1 else f"block {other}"
            raise NpuKernelError(f"{what} writes GM that {reader} read in this launch: blocks run in parallel on the "
                                 "chip, so the write races the read (the simulator ran the reader first); write "
                                 "results where no other block reads, or in a second launch")

    def check_read(self, block: int, base: np.ndarray, view: np.ndarray, what: str) -> None:
        key = gm_key(base)
        if key not in self.writers and key not in self.readers:
            self.pending_reads.setdefault(key, []).append((block, view))  # its bytes are listed only if written
            return
        span = byte_span(base, view)
        if key in self.writers:
            other = _other_writer(_grown(self.writers, base)[span], block)
            if other is not None:
                raise NpuKernelError(f"{what} reads GM that block {other} wrote in this launch: blocks run "
                                     "in parallel on the chip and no cross-core synchronisation is simulated, so the "
                                     "read races the write; finish the other blocks' results in a second launch")
        _mark_read(self._readers(base), span, block)

    def _readers(self, base: np.ndarray) -> np.ndarray:
        """The readers table of ``base``'s buffer, made from its pending reads the first time."""
        table = _grown(self.readers, base)
        for block, view in self.pending_reads.pop(gm_key(base), []):
            _mark_read(table, byte_span(base, view), block)
        return table


SEVERAL = -1
"""A byte's reader when more than one block read it."""


def _grown(tables: dict[int, np.ndarray], base: np.ndarray) -> np.ndarray:
    """The per-byte table of the buffer that starts where ``base`` does (grown to ``base``'s size)."""
    key = gm_key(base)
    table = tables.get(key)
    if table is None or table.size < base.nbytes:
        grown = np.zeros(base.nbytes, dtype=np.int32)
        if table is not None:
            grown[:table.size] = table
        tables[key] = table = grown
    return table


def _mark_read(table: np.ndarray, span: slice | np.ndarray, block: int) -> None:
    seen = table[span]
    own = block + 1
    if np.all((seen == 0) | (seen == own)):
        table[span] = own
    else:
        table[span] = np.where((seen == 0) | (seen == own), own, SEVERAL)


def _other_writer(writers: np.ndarray, block: int) -> int | None:
    """The first block other than ``block`` among the writers of some bytes (stored as block + 1; 0: unwritten)."""
    others = writers[(writers != 0) & (writers != block + 1)]
    return int(others[0]) - 1 if others.size else None


def byte_span(base: np.ndarray, view: np.ndarray) -> slice | np.ndarray:
    """The bytes of the flat ``base`` that ``view`` (a view of it) occupies: a slice for a contiguous view (the usual
    copy, found without listing its elements), else the indices of its bytes."""
    size = base.itemsize
    start = gm_key(view) - gm_key(base)
    if view.flags.c_contiguous and view.itemsize == size:
        return slice(start, start + view.size * size)
    offsets = element_offsets(base, view)
    if offsets.size and offsets[-1] - offsets[0] == offsets.size - 1 and np.all(np.diff(offsets) == 1):
        return slice(int(offsets[0]) * size, (int(offsets[-1]) + 1) * size)
    return np.add.outer(offsets * size, np.arange(size)).ravel()


def gm_key(base: np.ndarray) -> int:
    """Where a GM buffer's memory starts: one key for every view of one tensor (a tensor passed as two arguments
    is one buffer, with one order of its reads and writes)."""
    return base.__array_interface__["data"][0]


def element_offsets(base: np.ndarray, view: np.ndarray) -> np.ndarray:
    """The indices into the flat ``base`` of every element of ``view`` (a strided view of it)."""
    offsets = np.array((gm_key(view) - gm_key(base)) // base.itemsize)
    for size, stride in zip(view.shape, view.strides):
        offsets = np.add.outer(offsets, np.arange(size) * (stride // base.itemsize))
    return offsets.ravel()


@dataclass
class CoreContext:
    """Everything one block sees while it runs: chip, ids, buffers, pipes and counters."""

    chip: ChipConfig
    block_idx: int
    block_num: int
    kernel_type: str
    gm_share: float
    timeline: CoreTimeline
    memory: dict[str, np.ndarray] = field(default_factory=dict)
    used: dict[str, int] = field(default_factory=dict)
    allocations: list[tuple[str, str, int]] = field(default_factory=list)
    buffers_per_position: dict[str, int] = field(default_factory=dict)
    local_slots: list[Slot] = field(default_factory=list)
    local_buffers: list = field(default_factory=list)
    """Every queue buffer and TBuf this block carved out of its memory (see :meth:`retire`)."""
    gm_slots: dict[int, Slot] = field(default_factory=dict)
    launch: LaunchState = field(default_factory=LaunchState)
    flags: dict[tuple[str, int], float] = field(default_factory=dict)
    alignment: dict[str, int] = field(default_factory=dict)
    gm_read: int = 0
    gm_write: int = 0
    local_bytes: int = 0

    def __post_init__(self) -> None:
        self.alignment = {b: self.chip.buffer_alignment(b) for b in ("UB", "L1", "L0A", "L0B", "L0C")}

    def retire(self) -> None:
        """The block has ended: every tensor of its on-chip memory is dead (another block, or a later launch,
        that kept one gets a use-after-free error instead of a core's buffers it does not have)."""
        for buffer in self.local_buffers:
            buffer.live, buffer.retired = False, True
            buffer.generation += 1

    def dma_cycles(self, path: str, nbytes: int, bursts: int = 1) -> float:
        """Latency plus bytes over the path's rate; GM paths get at most this core's bandwidth share."""
        rate = self.chip.dma_bytes_per_cycle[path]
        if path in GM_PATHS:
            rate = min(rate, self.gm_share)
        extra = self.chip.dma_burst_cycles * (bursts - 1)
        return self.chip.dma_latency_cycles + extra + nbytes / rate

    def gm_slot(self, addr: "GmAddr") -> Slot:
        key = gm_key(addr.base)
        if key not in self.gm_slots:
            self.gm_slots[key] = Slot(f"GM buffer #{len(self.gm_slots)}", local=False)
        return self.gm_slots[key]


_CORE: contextvars.ContextVar[CoreContext | None] = contextvars.ContextVar("npu_core", default=None)


def current_core() -> CoreContext:
    core = _CORE.get()
    if core is None:
        raise NpuKernelError("this API runs only inside a kernel: call it from a function started by launch()")
    return core


def inside_kernel() -> bool:
    """True while a kernel block runs (in this context)."""
    return _CORE.get() is not None


def enter_core(core: CoreContext) -> contextvars.Token:
    return _CORE.set(core)


def leave_core(token: contextvars.Token) -> None:
    _CORE.reset(token)


def GetBlockIdx() -> int:
    """Index of the running block, in [0, GetBlockNum())."""
    return current_core().block_idx


def GetBlockNum() -> int:
    """The block_dim of the launch."""
    return current_core().block_num


class GmAddr:
    """A ``GM_ADDR`` kernel argument: a flat global-memory array plus an element offset."""

    __slots__ = ("base", "offset", "dtype")

    def __init__(self, base: np.ndarray, offset: int = 0):
        self.base = base
        self.offset = offset
        self.dtype = dtype_name(base.dtype)

    def __add__(self, elements: int) -> "GmAddr":
        if not isinstance(elements, (int, np.integer)):
            raise ParamError(f"GM address arithmetic takes an integer element offset, got {elements!r}")
        return GmAddr(self.base, self.offset + int(elements))

    def __getitem__(self, elements: int) -> "GmAddr":
        """``x[offset]``: the address ``offset`` elements further on (same as ``x + offset``)."""
        return self + elements

    def __repr__(self) -> str:
        return f"GmAddr({self.dtype}[{self.base.size}] + {self.offset})"


def to_gm(value) -> GmAddr:
    """Wrap a contiguous numpy array or CPU torch tensor as GM without copying it."""
    return GmAddr(gm_array(value))


def gm_array(value) -> np.ndarray:
    """The flat numpy view of a contiguous numpy array or CPU torch tensor (no copy), for :class:`GmAddr`."""
    if hasattr(value, "detach") and hasattr(value, "numpy"):
        value = _torch_to_numpy(value)
    if not isinstance(value, np.ndarray):
        raise ParamError(f"a kernel argument must be a tensor, a TilingData or a number, got {type(value).__name__}")
    if not value.flags.c_contiguous:
        raise ParamError("kernel arguments must be contiguous: call .contiguous() on the host side first")
    return value.reshape(-1)


def _torch_to_numpy(tensor) -> np.ndarray:
    import torch
    from ml_dtypes import bfloat16

    if not tensor.is_contiguous():
        raise ParamError("kernel arguments must be contiguous: call .contiguous() on the host side first")
    if tensor.device.type != "cpu" or tensor.is_conj() or tensor.is_neg():
        raise ParamError(f"a kernel argument must be a plain CPU tensor in memory, got one on {tensor.device.type}"
                         f"{' with a conjugate or negative bit' if tensor.is_conj() or tensor.is_neg() else ''}")
    tensor = tensor.detach()
    if tensor.dtype == torch.bfloat16:
        return tensor.view(torch.int16).numpy().view(bfloat16)
    try:
        return tensor.numpy()
    except TypeError as error:  # float8 and other types numpy has no name for
        raise ParamError(f"a {tensor.dtype} tensor cannot be a kernel argument: {error}") from error
