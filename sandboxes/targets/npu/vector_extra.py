"""Vector instructions beyond element-wise math: Duplicate, Cast, Compare/Select and reductions."""

from __future__ import annotations

from enum import Enum

import numpy as np

from sandboxes.targets.npu.dtypes import np_dtype
from sandboxes.targets.npu.errors import DtypeError, ParamError
from sandboxes.targets.npu.runtime import current_core
from sandboxes.targets.npu.vector import (ARITH_TYPES, FLOAT_TYPES, Repeat, UnaryRepeatParams, _check_operand,
                                          _scalar, issue, record_vector, repeat_index)

ALL_TYPES = frozenset({"float16", "float32", "bfloat16", "int8", "uint8", "int16", "int32"})


class RoundMode(str, Enum):
    CAST_NONE = "CAST_NONE"
    CAST_RINT = "CAST_RINT"
    CAST_FLOOR = "CAST_FLOOR"
    CAST_CEIL = "CAST_CEIL"
    CAST_ROUND = "CAST_ROUND"
    CAST_TRUNC = "CAST_TRUNC"


class CMPMODE(str, Enum):
    LT = "LT"
    GT = "GT"
    EQ = "EQ"
    LE = "LE"
    GE = "GE"
    NE = "NE"


class SELMODE(str, Enum):
    VSEL_TENSOR_TENSOR_MODE = "VSEL_TENSOR_TENSOR_MODE"
    VSEL_TENSOR_SCALAR_MODE = "VSEL_TENSOR_SCALAR_MODE"


_ROUND = {"CAST_NONE": np.rint, "CAST_RINT": np.rint, "CAST_FLOOR": np.floor, "CAST_CEIL": np.ceil,
          "CAST_ROUND": lambda a: np.sign(a) * np.floor(np.abs(a) + 0.5), "CAST_TRUNC": np.trunc}
_COMPARE = {"LT": np.less, "GT": np.greater, "EQ": np.equal, "LE": np.less_equal, "GE": np.greater_equal,
            "NE": np.not_equal}


def Duplicate(dst, scalar, count_or_mask, repeatTimes=None, dstBlkStride: int = 1, dstRepStride: int = 8) -> None:
    """Fill with a scalar: ``Duplicate(dst, v, count)`` or ``(dst, v, mask, repeatTimes, dstBlk, dstRep)``."""
    value = _scalar(scalar, dst.dtype)
    repeat = None if repeatTimes is None else Repeat(count_or_mask, repeatTimes, [(dstBlkStride, dstRepStride)])
    issue("Duplicate", "copy", dst, [], lambda: value, None if repeat else count_or_mask, repeat, ALL_TYPES)


def Cast(dst, src, round_mode, count: int) -> None:
    """Convert element types; float→int conversions round by ``round_mode`` (a RoundMode)."""
    mode = RoundMode(round_mode).value
    to_int = not np.issubdtype(np_dtype(dst.dtype), np.floating) and dst.dtype != "bfloat16"

    def convert(a):
        a = a.astype(np.float64) if to_int else a
        return _ROUND[mode](a) if to_int else a
    issue_cast(dst, src, convert, count)


def issue_cast(dst, src, convert, count: int) -> None:
    """Cast's own issue: source and destination types differ, so no float32 staging of the result."""
    for tensor in (dst, src):
        _check_operand(tensor, "Cast")
        if tensor.dtype not in ALL_TYPES:
            raise DtypeError(f"Cast does not support {tensor.dtype}")
    count = int(count)
    if count <= 0:
        return
    values = src._span(0, count)
    values = values.astype(np.float32) if src.dtype == "bfloat16" else values
    dst._span(0, count)[...] = np.asarray(convert(values)).astype(np_dtype(dst.dtype))
    width = max(np_dtype(dst.dtype).itemsize, np_dtype(src.dtype).itemsize)
    repeats = -(-count * width // current_core().chip.vector_repeat_bytes)
    record_vector("Cast", "cast", repeats, [src._slot], [dst._slot], dst.dtype)


def Compare(dst, src0, src1, mode, count: int) -> None:
    """Bit mask (uint8, one bit per element, LSB first) of ``src0 <mode> src1``; count·size a multiple of 256 B."""
    _compare("Compare", dst, [src0, src1], lambda a, b: _COMPARE[CMPMODE(mode).value](a, b), count)


def CompareScalar(dst, src0, scalar, mode, count: int) -> None:
    """Bit mask of ``src0 <mode> scalar``."""
    value = _scalar(scalar, src0.dtype)
    _compare("CompareScalar", dst, [src0], lambda a: _COMPARE[CMPMODE(mode).value](a, value), count)


def _compare(name: str, dst, srcs, fn, count: int) -> None:
    count = int(count)
    if dst.dtype != "uint8":
        raise DtypeError(f"{name} writes a uint8 bit mask; allocate dst as uint8")
    if any(src.dtype != srcs[0].dtype for src in srcs[1:]):
        raise DtypeError(f"{name} compares operands of one type, got {srcs[0].dtype} and {srcs[1].dtype} (the "
                         "repeats are counted in the first one's elements); use Cast")
    size = np_dtype(srcs[0].dtype).itemsize
    if count * size % 256:
        raise ParamError(f"{name} count·sizeof = {count * size} B must be a multiple of 256 B (one repeat)")
    for tensor in (dst, *srcs):
        _check_operand(tensor, name)
    values = [s._span(0, count).astype(np.float32) for s in srcs]
    dst._span(0, count // 8)[...] = np.packbits(fn(*values), bitorder="little")
    record_vector(name, "binary", count * size // 256, [s._slot for s in srcs], [dst._slot], srcs[0].dtype)


def Select(dst, selMask, src0, src1, selMode=SELMODE.VSEL_TENSOR_TENSOR_MODE, count: int = 0) -> None:
    """dst = src0 where the mask bit is 1, else src1 (a tensor, or a scalar in VSEL_TENSOR_SCALAR_MODE)."""
    count = int(count)
    _check_operand(selMask, "Select")
    bits = np.unpackbits(selMask._span(0, -(-count // 8)), bitorder="little")[:count].astype(bool)
    if SELMODE(selMode) is SELMODE.VSEL_TENSOR_SCALAR_MODE:
        other = _scalar(src1, dst.dtype)
        issue("Select", "binary", dst, [src0], lambda a: np.where(bits, a, other), count, None, ARITH_TYPES,
              [selMask._slot])
    else:
        issue("Select", "binary", dst, [src0, src1], lambda a, b: np.where(bits, a, b), count, None, ARITH_TYPES,
              [selMask._slot])


def _reduce(name: str, fn, with_index: bool):
    def instruction(dst, src, workLocal, count: int, calIndex: bool = False) -> None:
        count = int(count)
        for tensor in (dst, src, workLocal):
            _check_operand(tensor, name)
            if tensor.dtype not in FLOAT_TYPES or tensor.dtype != src.dtype:
                raise DtypeError(f"{name} needs float16/float32 dst, src and workLocal of one type")
        lanes = current_core().chip.vector_repeat_bytes // np_dtype(src.dtype).itemsize
        repeats = -(-count // lanes)
        if workLocal.GetSize() < repeats:
            raise ParamError(f"{name} workLocal holds {workLocal.GetSize()} elements but needs ≥ {repeats} "
                             f"(one per repeat of {lanes}); enlarge the work buffer")
        values = src._span(0, count).astype(np.float32)
        dst._span(0, 1)[0] = fn(values)
        if with_index and calIndex:
            index_view = dst.ReinterpretCast("int16" if dst.dtype == "float16" else "int32")
            index_view._span(1, 1)[0] = int(np.argmax(values) if fn is np.max else np.argmin(values))
        record_vector(name, "reduce", repeats + int(np.ceil(np.log2(max(repeats, 1)))) + 1,
                      [src._slot], [dst._slot, workLocal._slot], dst.dtype)
    instruction.__name__ = name
    instruction.__doc__ = f"{name}(dst, src, workLocal, count[, calIndex]): dst[0] = reduction of src[:count]."
    return instruction


ReduceSum = _reduce("ReduceSum", np.sum, False)
ReduceMax = _reduce("ReduceMax", np.max, True)
ReduceMin = _reduce("ReduceMin", np.min, True)


def _whole(name: str, fn):
    def instruction(dst, src, mask, repeatTimes: int, dstRepStride: int = 1, srcBlkStride: int = 1,
                    srcRepStride: int = 8) -> None:
        """One result per repeat: dst[r * dstRepStride] = reduction of repeat r's masked elements."""
        for tensor in (dst, src):
            _check_operand(tensor, name)
            if tensor.dtype not in FLOAT_TYPES or tensor.dtype != src.dtype:
                raise DtypeError(f"{name} needs float16/float32 dst and src of one type")
        times = int(repeatTimes)
        chip = current_core().chip
        if not 0 <= times <= chip.max_repeat:
            raise ParamError(f"{name} repeatTimes must be in [0, {chip.max_repeat}], got {times}")
        if times == 0:
            return
        size = np_dtype(src.dtype).itemsize
        repeat = Repeat(mask, times, [(srcBlkStride, srcRepStride)])
        index = repeat_index(repeat, 0, size, chip.vector_repeat_bytes // size)
        values = src._span(0, int(index.max()) + 1)[index].astype(np.float32)
        out = np.arange(times) * int(dstRepStride)
        dst._span(0, int(out.max()) + 1)[out] = fn(values, axis=1)
        record_vector(name, "reduce", times, [src._slot], [dst._slot], dst.dtype)
    instruction.__name__ = name
    return instruction


WholeReduceSum = _whole("WholeReduceSum", np.sum)
WholeReduceMax = _whole("WholeReduceMax", np.max)
WholeReduceMin = _whole("WholeReduceMin", np.min)

__all__ = ["ALL_TYPES", "CMPMODE", "Cast", "Compare", "CompareScalar", "Duplicate", "ReduceMax", "ReduceMin",
           "ReduceSum", "RoundMode", "SELMODE", "Select", "UnaryRepeatParams", "WholeReduceMax",
           "WholeReduceMin", "WholeReduceSum"]
