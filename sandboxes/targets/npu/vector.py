"""Vector instructions on UB tensors: the issue machinery (count and repeat/mask/stride forms) and
the element-wise instructions. Each call runs as one numpy operation and one VEC-pipe event."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from sandboxes.targets.npu.dtypes import is_float, np_dtype, require_int, require_number
from sandboxes.targets.npu.errors import DtypeError, ParamError, QueuePositionError
from sandboxes.targets.npu.runtime import current_core
from sandboxes.targets.npu.tensors import UB_POSITIONS, LocalTensor

FLOAT_TYPES = frozenset({"float16", "float32"})
ARITH_TYPES = FLOAT_TYPES | {"int16", "int32"}


@dataclass
class BinaryRepeatParams:
    """Strides of a two-source instruction: block strides in DataBlocks, repeat strides in DataBlocks."""

    dstBlkStride: int = 1
    src0BlkStride: int = 1
    src1BlkStride: int = 1
    dstRepStride: int = 8
    src0RepStride: int = 8
    src1RepStride: int = 8


@dataclass
class UnaryRepeatParams:
    """Strides of a one-source instruction, in DataBlocks."""

    dstBlkStride: int = 1
    srcBlkStride: int = 1
    dstRepStride: int = 8
    srcRepStride: int = 8


@dataclass
class Repeat:
    """The repeat form of an instruction: mask, repeat count and (block, repeat) stride per operand."""

    mask: int | Sequence[int]
    times: int
    strides: list[tuple[int, int]]  # dst first, then sources

    def __post_init__(self) -> None:
        self.times = require_int(self.times, "repeatTimes")
        self.strides = [(require_int(block, "a block stride"), require_int(rep, "a repeat stride"))
                        for block, rep in self.strides]


def repeat_of(mask, times, params, n_operands: int) -> Repeat:
    """Turn Ascend C's (mask, repeatTimes, *RepeatParams) into per-operand strides."""
    if isinstance(params, BinaryRepeatParams):
        strides = [(params.dstBlkStride, params.dstRepStride), (params.src0BlkStride, params.src0RepStride),
                   (params.src1BlkStride, params.src1RepStride)]
    elif isinstance(params, UnaryRepeatParams):
        strides = [(params.dstBlkStride, params.dstRepStride), (params.srcBlkStride, params.srcRepStride)]
    else:
        raise ParamError(f"repeat form needs BinaryRepeatParams or UnaryRepeatParams, got {type(params).__name__}")
    return Repeat(mask, times, strides[:n_operands])


def _mask_lanes(mask, lanes: int) -> np.ndarray:
    """Boolean lane selection of one repeat from a continuous or a bit mask."""
    if isinstance(mask, (int, np.integer)):
        if not 1 <= mask <= lanes:
            raise ParamError(f"continuous mask must be in [1, {lanes}] for this type, got {mask}")
        return np.arange(lanes) < mask
    hi, lo = (int(m) for m in mask)
    bits = [(lo >> i) & 1 for i in range(64)] + [(hi >> i) & 1 for i in range(64)]
    return np.array(bits[:lanes], dtype=bool)


def repeat_index(repeat: Repeat, operand: int, itemsize: int, lanes: int) -> np.ndarray:
    """Element indices touched by one operand over all repeats, (times, selected lanes)."""
    block = 32 // itemsize
    blk_stride, rep_stride = repeat.strides[operand]
    lane = np.arange(lanes)[_mask_lanes(repeat.mask, lanes)]
    within = (lane // block) * blk_stride * block + lane % block
    return np.arange(repeat.times)[:, None] * rep_stride * block + within[None, :]


def _check_operand(tensor, name: str) -> None:
    if not isinstance(tensor, LocalTensor):
        raise ParamError(f"{name}: operands must be LocalTensors in UB, got {type(tensor).__name__}")
    if tensor.position not in UB_POSITIONS:
        raise QueuePositionError(
            f"{name} works on UB tensors (VECIN/VECCALC/VECOUT); got one at {tensor.position} ({tensor.buffer})")
    tensor._require_alignment(name)


def _gather(tensor: LocalTensor, index: np.ndarray) -> np.ndarray:
    return tensor._span(0, int(index.max()) + 1)[index]


def issue(name: str, cost: str, dst: LocalTensor, srcs: Sequence[LocalTensor], fn: Callable,
          count: int | None = None, repeat: Repeat | None = None, dtypes=ARITH_TYPES, extra_reads=()) -> None:
    """Check, execute and time one vector instruction. ``fn`` maps source arrays to the result."""
    width = 0
    for tensor in (dst, *srcs):
        if type(tensor) is not LocalTensor or not tensor._aligned or tensor.position not in UB_POSITIONS:
            _check_operand(tensor, name)
        if tensor._dtype not in dtypes:
            raise DtypeError(f"{name} does not support {tensor.dtype} on this chip; supported: {sorted(dtypes)} "
                             f"(Cast to float32 first)")
        if tensor._np.itemsize > width:
            width = tensor._np.itemsize
    core = current_core()
    lanes = core.chip.vector_repeat_bytes // width
    if repeat is None:
        count = int(count)
        if count < 0:
            raise ParamError(f"{name} count must be ≥ 0, got {count}")
        if count == 0:
            return
        target = dst._span(0, count)  # bounds first: a count past the buffer is refused before anything is computed
        target[...] = _compute(fn, [s._span(0, count) for s in srcs], dst)
        repeats = -(-count * width // core.chip.vector_repeat_bytes)
    else:
        if not 0 <= repeat.times <= core.chip.max_repeat:
            raise ParamError(f"{name} repeatTimes must be in [0, {core.chip.max_repeat}], got {repeat.times}; "
                             f"split the work into several calls or use the count form")
        if repeat.times == 0:
            return
        index = [repeat_index(repeat, i, width, lanes) for i in range(1 + len(srcs))]
        target = dst._span(0, int(index[0].max()) + 1)
        target[index[0]] = _compute(fn, [_gather(s, ix) for s, ix in zip(srcs, index[1:])], dst)
        repeats = repeat.times
    record_vector(name, cost, repeats, [s._slot for s in srcs] + list(extra_reads), [dst._slot], dst.dtype, core)


def record_vector(name: str, cost: str, repeats: int, reads, writes, dtype: str, core=None) -> None:
    core = core or current_core()
    table = core.chip.vector_costs[cost]
    cycles = table.fixed + table.per_repeat * repeats
    if cost == "reduce" and dtype == "float16":
        cycles *= core.chip.reduce_half_penalty
    core.timeline.record(name, "VEC", cycles, reads, writes)


def _compute(fn: Callable, arrays: list[np.ndarray], dst: LocalTensor) -> np.ndarray:
    """Floats compute in fp32 and round to the destination type; integers wrap in their own type."""
    if dst._dtype == "float16" or dst._dtype == "bfloat16":
        arrays = [a.astype(np.float32) for a in arrays]
    return fn(*arrays)  # launch() runs kernels under np.errstate(all="ignore"): inf/nan as on the chip


def _scalar(value, dtype: str):
    """A scalar operand as the instruction computes with it; anything array-like is refused (numpy would broadcast
    a host tensor passed as the "scalar", loading it into UB with no copy charged)."""
    require_number(value, "a scalar operand")
    if dtype == "float32":  # the commonest case: already the fp32 it computes in
        return np.float32(value)
    return np_dtype(dtype).type(value).astype(np.float32) if is_float(dtype) else np_dtype(dtype).type(value)


def _binary(name: str, cost: str, fn: Callable, dtypes=ARITH_TYPES):
    def instruction(dst, src0, src1, count_or_mask, repeatTimes=None, repeatParams=None):
        repeat = None if repeatTimes is None else repeat_of(count_or_mask, repeatTimes, repeatParams, 3)
        if src0.dtype != src1.dtype or src0.dtype != dst.dtype:
            raise DtypeError(f"{name} needs dst, src0 and src1 of one type, got {dst.dtype}, {src0.dtype}, {src1.dtype}")
        issue(name, cost, dst, [src0, src1], fn, count_or_mask if repeat is None else None, repeat, dtypes)
    instruction.__name__ = name
    instruction.__doc__ = f"{name}(dst, src0, src1, count) or {name}(dst, src0, src1, mask, repeatTimes, BinaryRepeatParams)."
    return instruction


def _unary(name: str, cost: str, fn: Callable, dtypes=FLOAT_TYPES):
    def instruction(dst, src, count_or_mask, repeatTimes=None, repeatParams=None):
        repeat = None if repeatTimes is None else repeat_of(count_or_mask, repeatTimes, repeatParams, 2)
        if src.dtype != dst.dtype:
            raise DtypeError(f"{name} needs dst and src of one type, got {dst.dtype} and {src.dtype}; use Cast")
        issue(name, cost, dst, [src], fn, count_or_mask if repeat is None else None, repeat, dtypes)
    instruction.__name__ = name
    instruction.__doc__ = f"{name}(dst, src, count) or {name}(dst, src, mask, repeatTimes, UnaryRepeatParams)."
    return instruction


def _with_scalar(name: str, fn: Callable, dtypes=ARITH_TYPES):
    def instruction(dst, src, scalar, count_or_mask, repeatTimes=None, repeatParams=None):
        repeat = None if repeatTimes is None else repeat_of(count_or_mask, repeatTimes, repeatParams, 2)
        if src.dtype != dst.dtype:
            raise DtypeError(f"{name} needs dst and src of one type, got {dst.dtype} and {src.dtype}; use Cast")
        value = _scalar(scalar, dst.dtype)
        issue(name, "unary", dst, [src], lambda a: fn(a, value),
              count_or_mask if repeat is None else None, repeat, dtypes)
    instruction.__name__ = name
    instruction.__doc__ = f"{name}(dst, src, scalar, count) or {name}(dst, src, scalar, mask, repeatTimes, UnaryRepeatParams)."
    return instruction


Add = _binary("Add", "binary", np.add)
Sub = _binary("Sub", "binary", np.subtract)
Mul = _binary("Mul", "binary", np.multiply)
Div = _binary("Div", "div", np.divide, FLOAT_TYPES)
Max = _binary("Max", "binary", np.maximum)
Min = _binary("Min", "binary", np.minimum)
And = _binary("And", "binary", np.bitwise_and, frozenset({"int16", "uint8"}))
Or = _binary("Or", "binary", np.bitwise_or, frozenset({"int16", "uint8"}))
Exp = _unary("Exp", "transcendental", np.exp)
Ln = _unary("Ln", "transcendental", np.log)
Sqrt = _unary("Sqrt", "transcendental", np.sqrt)
Rsqrt = _unary("Rsqrt", "unary", lambda a: 1.0 / np.sqrt(a))
Reciprocal = _unary("Reciprocal", "unary", lambda a: 1.0 / a)
Abs = _unary("Abs", "unary", np.abs)
Relu = _unary("Relu", "unary", lambda a: np.maximum(a, 0), ARITH_TYPES)
Adds = _with_scalar("Adds", np.add)
Muls = _with_scalar("Muls", np.multiply)
Maxs = _with_scalar("Maxs", np.maximum)
Mins = _with_scalar("Mins", np.minimum)
LeakyRelu = _with_scalar("LeakyRelu", lambda a, s: np.where(a >= 0, a, a * s), FLOAT_TYPES)


def Axpy(dst, src, scalar, count: int) -> None:
    """dst = src * scalar + dst (count form)."""
    value = _scalar(scalar, dst.dtype)
    issue("Axpy", "binary", dst, [src, dst], lambda a, d: a * value + d, count, None, FLOAT_TYPES)
