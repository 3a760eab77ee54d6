"""Vector instructions that move elements across lanes: CreateVecIndex, Gather and CumSum.

``Gather`` is Ascend C's ``Gather(dst, src, srcOffsetLocal, srcBaseAddr, count)``: every destination
element is read from the source at a byte offset taken from an offset tensor (the hardware ``vgather``).
It is how window operators (pooling, depthwise convolution, img2col) and tile transposes shift and
permute data inside UB, where vector operands must start on 32-byte boundaries. Offsets are int32
here (the simulator has no uint32); they must be whole elements and stay inside ``src``.

``CumSum(dst, src, count)`` is the last-axis inclusive prefix sum of Ascend C's ``CumSum`` advanced API
for one row (``CumSumInfo{outter=1, inner=count}``); rows longer than one call carry the running
total with ``Adds``.
"""

from __future__ import annotations

import numpy as np

from sandboxes.targets.npu.dtypes import np_dtype, require_number
from sandboxes.targets.npu.errors import DtypeError, OutOfBoundsError, ParamError
from sandboxes.targets.npu.runtime import current_core
from sandboxes.targets.npu.vector import FLOAT_TYPES, _check_operand, issue, record_vector
from sandboxes.targets.npu.vector_extra import ALL_TYPES

INDEX_TYPES = frozenset({"int16", "int32", "float16", "float32"})


def CreateVecIndex(dst, firstValue, count: int) -> None:
    """dst[i] = firstValue + i for i < count (an arithmetic sequence, e.g. the lane index)."""
    if dst.dtype not in INDEX_TYPES:
        raise DtypeError(f"CreateVecIndex supports {sorted(INDEX_TYPES)}, got {dst.dtype}")
    require_number(firstValue, "CreateVecIndex's firstValue")
    start = np_dtype(dst.dtype).type(firstValue)
    issue("CreateVecIndex", "copy", dst, [], lambda: start + np.arange(int(count)), count, None, INDEX_TYPES)


def Gather(dst, src, srcOffsetLocal, srcBaseAddr: int, count: int) -> None:
    """dst[i] = the element of ``src`` at byte ``srcBaseAddr + srcOffsetLocal[i]``, for i < count."""
    count = int(count)
    for tensor, role in ((dst, "dst"), (src, "src"), (srcOffsetLocal, "srcOffsetLocal")):
        _check_operand(tensor, f"Gather {role}")
    if dst.dtype != src.dtype or dst.dtype not in ALL_TYPES:
        raise DtypeError(f"Gather needs dst and src of one type, got {dst.dtype} and {src.dtype}")
    if srcOffsetLocal.dtype != "int32":
        raise DtypeError(f"Gather offsets are int32 byte offsets, got {srcOffsetLocal.dtype}")
    if count < 0 or int(srcBaseAddr) < 0:
        raise ParamError(f"Gather count and srcBaseAddr must be ≥ 0, got {count}, {srcBaseAddr}")
    if count == 0:
        return
    size = np_dtype(src.dtype).itemsize
    index = srcOffsetLocal._span(0, count).astype(np.int64)  # byte offsets, then element indices (in place)
    index += int(srcBaseAddr)
    if (index & (size - 1)).any():  # element sizes are powers of two: & and >> are % and // here, and faster
        raise ParamError(f"Gather offsets must be multiples of sizeof({src.dtype}) = {size} bytes")
    index >>= size.bit_length() - 1
    lowest, highest = int(index.min()), int(index.max())
    if lowest < 0 or highest >= src.GetSize():
        raise OutOfBoundsError(f"Gather reads element {highest if highest >= 0 else lowest} of a "
                               f"src of {src.GetSize()} elements: check srcBaseAddr and the offset table")
    np.take(src._span(0, highest + 1), index, out=dst._span(0, count))  # buffered: dst may overlap src
    core = current_core()
    repeats = -(-count * size // core.chip.vector_repeat_bytes)
    record_vector("Gather", "gather", repeats, [src._slot, srcOffsetLocal._slot], [dst._slot], dst.dtype, core)


def CumSum(dst, src, count: int) -> None:
    """Inclusive prefix sum: dst[i] = src[0] + ... + src[i] for i < count (float accumulate in fp32)."""
    if src.dtype != dst.dtype:
        raise DtypeError(f"CumSum needs dst and src of one type, got {dst.dtype} and {src.dtype}")
    issue("CumSum", "scan", dst, [src], lambda a: np.cumsum(a, dtype=a.dtype), count, None,
          FLOAT_TYPES | {"int32"})


__all__ = ["CreateVecIndex", "CumSum", "Gather"]
