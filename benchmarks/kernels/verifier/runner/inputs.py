"""Shared regions: a worker's inputs (and its output) live in memory the trusted runner reads itself.

The runner keeps each call's fresh inputs as it generated them, copies them into a memfd region that it
shares with one worker (the descriptor travels over the worker's socket), and after the call compares
the region with its own tensors bit for bit: the input-mutation check needs nothing the worker reports.
The worker copies its output into a second region, read by the runner without a copy through the
socket. The runner creates, sizes and seals both (no shrinking or growing), so a worker cannot make
the runner's mappings fault. Tensors keep their strides when they are dense (e.g. a transposed input);
other layouts are laid out contiguous. Non-tensor inputs (ints, floats, bools, strings) travel in the
layout as JSON values.
"""

from __future__ import annotations

import fcntl
import mmap
import os
from typing import Any

import torch

ALIGN = 64
"""Every tensor starts at a multiple of this many bytes (and the region's size is one)."""
SCALARS = (bool, int, float, str, type(None))


def layout_of(inputs: list[Any]) -> tuple[list[dict[str, Any]], int]:
    """The slots of ``inputs`` (one per input: a tensor's offset, shape, strides and dtype, or a value) and
    the region size in bytes; anything else is a TypeError."""
    slots, offset = [], 0
    for index, value in enumerate(inputs):
        if isinstance(value, torch.Tensor):
            stride = list(value.stride()) if is_dense(value) else contiguous_strides(value.shape)
            slots.append({"offset": offset, "shape": list(value.shape), "stride": stride,
                          "dtype": str(value.dtype).removeprefix("torch.")})
            offset += _aligned(value.numel() * value.element_size())
        elif isinstance(value, SCALARS):
            slots.append({"value": value})
        else:
            raise TypeError(f"input {index} is a {type(value).__name__}; inputs must be tensors or plain values")
    return slots, max(offset, ALIGN)


def views(buffer: torch.Tensor, slots: list[dict[str, Any]]) -> list[Any]:
    """The inputs as views into ``buffer`` (a flat uint8 tensor laid out by :func:`layout_of`)."""
    out = []
    for slot in slots:
        if "value" in slot:
            out.append(slot["value"])
            continue
        flat = buffer[slot["offset"]: slot["offset"] + _slot_bytes(slot)].view(getattr(torch, slot["dtype"]))
        out.append(flat.as_strided(slot["shape"], slot["stride"]))
    return out


def _slot_bytes(slot: dict[str, Any]) -> int:
    """The bytes a tensor slot spans in the region (at least one element)."""
    return max(1, _numel(slot["shape"])) * torch.empty((), dtype=getattr(torch, slot["dtype"])).element_size()


def write(buffer: torch.Tensor, slots: list[dict[str, Any]], inputs: list[Any]) -> None:
    """Copy the tensors of ``inputs`` into their slots of ``buffer`` and zero every other byte of it: a kernel that
    wrote past its input (into the alignment padding or the region's last page) keeps nothing for the next call."""
    for view, value in zip(views(buffer, slots), inputs):
        if isinstance(value, torch.Tensor):
            view.copy_(value)
    for start, end in gaps(slots, buffer.numel()):
        buffer[start:end].zero_()


def gaps(slots: list[dict[str, Any]], nbytes: int) -> list[tuple[int, int]]:
    """The byte ranges of a region of ``nbytes`` that no input's slot covers (alignment padding, the tail)."""
    covered = sorted((slot["offset"], slot["offset"] + _slot_bytes(slot)) for slot in slots if "value" not in slot)
    found, position = [], 0
    for start, end in covered:
        if start > position:
            found.append((position, start))
        position = max(position, end)
    return found + ([(position, nbytes)] if position < nbytes else [])


def same_bits(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Bitwise equality of two tensors of one shape and dtype (NaN payloads included), whatever the strides."""
    if a.shape != b.shape or a.dtype != b.dtype:
        return False
    as_int = INT_OF_SIZE.get(a.element_size())
    if as_int is None:  # e.g. complex128: compare the raw bytes of contiguous copies
        return bool(torch.equal(a.contiguous().reshape(-1).view(torch.uint8), b.contiguous().reshape(-1).view(torch.uint8)))
    return bool(torch.equal(a.view(as_int), b.view(as_int)))


INT_OF_SIZE = {1: torch.uint8, 2: torch.int16, 4: torch.int32, 8: torch.int64}
"""An integer dtype of each element size: equality of integer views is bitwise."""


class Region:
    """A sealed shared-memory buffer of ``nbytes`` (a memfd mapped here); :meth:`descriptor` is what a
    worker maps."""

    def __init__(self, nbytes: int, name: str = "akregion") -> None:
        self.nbytes = -(-max(nbytes, 1) // mmap.PAGESIZE) * mmap.PAGESIZE
        """Whole pages: a worker maps whole pages, so every byte it can write is one the runner sees too."""
        nbytes = self.nbytes
        self._fd = os.memfd_create(name, os.MFD_CLOEXEC | os.MFD_ALLOW_SEALING)
        os.ftruncate(self._fd, nbytes)
        fcntl.fcntl(self._fd, fcntl.F_ADD_SEALS, fcntl.F_SEAL_SHRINK | fcntl.F_SEAL_GROW | fcntl.F_SEAL_SEAL)
        self.buffer = map_region(self._fd, nbytes)

    def descriptor(self) -> int:
        """The memfd (kept open by the region; the channel duplicates it when sending)."""
        return self._fd

    def close(self) -> None:
        """Close the descriptor (the mapping goes once no tensor views it any more)."""
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


def map_region(fd: int, nbytes: int) -> torch.Tensor:
    """Map ``nbytes`` of the memfd ``fd`` shared and writable, pages populated; a flat uint8 tensor over it."""
    mapping = mmap.mmap(fd, nbytes, flags=mmap.MAP_SHARED | getattr(mmap, "MAP_POPULATE", 0),
                        prot=mmap.PROT_READ | mmap.PROT_WRITE)
    return torch.frombuffer(mapping, dtype=torch.uint8)


def overlapping_input(output: torch.Tensor, inputs: list[Any]) -> int | None:
    """Index of the first input whose storage the output shares or whose bytes it overlaps, else None."""
    start, end = _span(output)
    storage = output.untyped_storage().data_ptr()
    for index, value in enumerate(inputs):
        if not isinstance(value, torch.Tensor) or value.device != output.device:
            continue
        other_start, other_end = _span(value)
        if value.untyped_storage().data_ptr() == storage or (start < other_end and other_start < end):
            return index
    return None


def stride_order(tensor: torch.Tensor) -> list[int]:
    """Its dims of size > 1 and non-zero stride, from the largest stride to the smallest: ascending for a
    row-major layout (a slice of one included), permuted for a transposed or channels-last one."""
    dims = [d for d in range(tensor.dim()) if tensor.shape[d] > 1 and tensor.stride(d) != 0]
    return sorted(dims, key=lambda d: (-tensor.stride(d), d))


def _span(tensor: torch.Tensor) -> tuple[int, int]:
    """[first, last) byte addresses a tensor's elements occupy (empty for an empty tensor)."""
    if tensor.numel() == 0:
        return 0, 0
    reach = sum((size - 1) * abs(stride) for size, stride in zip(tensor.shape, tensor.stride()))
    low = sum((size - 1) * stride for size, stride in zip(tensor.shape, tensor.stride()) if stride < 0)
    first = tensor.data_ptr() + low * tensor.element_size()
    return first, first + (reach + 1) * tensor.element_size()


def is_dense(tensor: torch.Tensor) -> bool:
    """True when the tensor covers exactly ``numel`` elements with non-negative strides (any order)."""
    if tensor.numel() == 0 or any(s < 0 for s in tensor.stride()):
        return tensor.numel() == 0 and tensor.is_contiguous()
    span = 1 + sum((size - 1) * stride for size, stride in zip(tensor.shape, tensor.stride()))
    dims = sorted((stride, size) for size, stride in zip(tensor.shape, tensor.stride()) if size > 1)
    expected = 1
    for stride, size in dims:
        if stride != expected:
            return False
        expected *= size
    return span == tensor.numel()


def contiguous_strides(shape: torch.Size) -> list[int]:
    strides, step = [], 1
    for size in reversed(list(shape)):
        strides.append(step)
        step *= max(1, size)
    return list(reversed(strides))


def _numel(shape: list[int]) -> int:
    count = 1
    for size in shape:
        count *= size
    return count


def _aligned(nbytes: int) -> int:
    return max(ALIGN, -(-nbytes // ALIGN) * ALIGN)
