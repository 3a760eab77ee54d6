"""Kernel-side conveniences built only from the language's own APIs (like Ascend C's helper macros)."""

from __future__ import annotations

import math

from sandboxes.targets.npu.datacopy import BLOCK, DataCopy, DataCopyExtParams, DataCopyPad, DataCopyPadExtParams
from sandboxes.targets.npu.dtypes import itemsize
from sandboxes.targets.npu.runtime import GetBlockIdx, GetBlockNum


def CeilDiv(value: int, unit: int) -> int:
    return -(-int(value) // int(unit))


def AlignUp(value: int, unit: int) -> int:
    return CeilDiv(value, unit) * int(unit)


def AlignedCount(count: int, dtype) -> int:
    """``count`` elements rounded up to whole 32-byte DataBlocks."""
    return AlignUp(count, BLOCK // itemsize(dtype))


def CopyIn(dst, src, count: int) -> None:
    """GM → UB: DataCopy for whole DataBlocks, DataCopyPad (zero padding) for a ragged length."""
    nbytes = int(count) * itemsize(dst.dtype)
    if nbytes % BLOCK == 0:
        DataCopy(dst, src, int(count))
    else:
        DataCopyPad(dst, src, DataCopyExtParams(1, nbytes, 0, 0), DataCopyPadExtParams(True, 0, 0, 0))


def CopyOut(dst, src, count: int) -> None:
    """UB → GM: DataCopy for whole DataBlocks, DataCopyPad for a ragged length."""
    nbytes = int(count) * itemsize(src.dtype)
    if nbytes % BLOCK == 0:
        DataCopy(dst, src, int(count))
    else:
        DataCopyPad(dst, src, DataCopyExtParams(1, nbytes, 0, 0))


def BlockSpan(total: int) -> tuple[int, int]:
    """(start, count) of this block's share when ``total`` items are split evenly over the blocks."""
    per_block = CeilDiv(total, GetBlockNum())
    start = GetBlockIdx() * per_block
    return start, max(0, min(per_block, int(total) - start))


def ScalarExp(value: float) -> float:
    """exp on the scalar unit (host-style float math inside a kernel)."""
    return math.exp(value)


def ScalarLog(value: float) -> float:
    """Natural log on the scalar unit."""
    return math.log(value)


def ScalarSqrt(value: float) -> float:
    """Square root on the scalar unit."""
    return math.sqrt(value)
