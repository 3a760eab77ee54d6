"""Cast, Duplicate, Compare/Select and the reductions against numpy."""

import ml_dtypes
import numpy as np
import pytest

from sandboxes.targets.npu.errors import DtypeError, ParamError
from sandboxes.targets.npu.lang import *
from tests.sandboxes.targets.npu.kernels import fill, read, run, ub_tensor

RNG = np.random.default_rng(1)


@pytest.mark.parametrize("src,dst", [("float32", "float16"), ("float32", "bfloat16"), ("float16", "float32"),
                                     ("bfloat16", "float32")])
def test_cast_between_float_types(src, dst):
    values = RNG.standard_normal(64).astype(np.float32)

    def body(pipe, out):
        a, b = ub_tensor(pipe, src, 64), ub_tensor(pipe, dst, 64)
        fill(a, values.astype(np.dtype(src) if src != "bfloat16" else ml_dtypes.bfloat16))
        Cast(b, a, RoundMode.CAST_NONE, 64)
        out["y"] = read(b, 64, dst if dst != "bfloat16" else ml_dtypes.bfloat16)
    want = values.astype(np.dtype(src) if src != "bfloat16" else ml_dtypes.bfloat16).astype(
        np.dtype(dst) if dst != "bfloat16" else ml_dtypes.bfloat16)
    np.testing.assert_array_equal(run(body)["y"], want)


@pytest.mark.parametrize("mode,fn", [("CAST_FLOOR", np.floor), ("CAST_CEIL", np.ceil), ("CAST_TRUNC", np.trunc),
                                     ("CAST_RINT", np.rint)])
def test_cast_float_to_int_rounds_by_mode(mode, fn):
    values = (RNG.standard_normal(64) * 10).astype(np.float32)

    def body(pipe, out):
        a, b = ub_tensor(pipe, "float32", 64), ub_tensor(pipe, "int32", 64)
        fill(a, values)
        Cast(b, a, mode, 64)
        out["y"] = read(b, 64, "int32")
    np.testing.assert_array_equal(run(body)["y"], fn(values).astype(np.int32))


def test_compare_and_select():
    a, b = RNG.standard_normal(64).astype(np.float32), RNG.standard_normal(64).astype(np.float32)

    def body(pipe, out):
        x, y, z = (ub_tensor(pipe, "float32", 64) for _ in range(3))
        mask = ub_tensor(pipe, "uint8", 32)
        fill(x, a)
        fill(y, b)
        Compare(mask, x, y, CMPMODE.LT, 64)
        Select(z, mask, x, y, SELMODE.VSEL_TENSOR_TENSOR_MODE, 64)
        out["min"] = read(z, 64, "float32")
        CompareScalar(mask, x, 0.0, CMPMODE.GE, 64)
        Select(z, mask, x, 0.0, SELMODE.VSEL_TENSOR_SCALAR_MODE, 64)
        out["relu"] = read(z, 64, "float32")
    out = run(body)
    np.testing.assert_array_equal(out["min"], np.minimum(a, b))
    np.testing.assert_array_equal(out["relu"], np.maximum(a, 0))


def test_compare_needs_whole_repeats():
    def body(pipe, out):
        x, mask = ub_tensor(pipe, "float32", 64), ub_tensor(pipe, "uint8", 32)
        Compare(mask, x, x, CMPMODE.EQ, 40)
    with pytest.raises(ParamError, match="256 B"):
        run(body)


def test_compare_takes_operands_of_one_type():
    """Repeats were counted in the first operand's elements: int8 zeros against float32 data was charged a quarter
    of the float compare (15,468 against 23,148 cycles) and gave the right mask."""
    def body(pipe, out):
        zeros, x = ub_tensor(pipe, "int8", 256), ub_tensor(pipe, "float32", 256)
        mask = ub_tensor(pipe, "uint8", 32)
        Compare(mask, zeros, x, CMPMODE.LT, 256)
    with pytest.raises(DtypeError, match="one type, got int8 and float32"):
        run(body)


@pytest.mark.parametrize("name,fn", [("ReduceSum", np.sum), ("ReduceMax", np.max), ("ReduceMin", np.min)])
def test_reductions(name, fn):
    values = RNG.standard_normal(1000).astype(np.float32)

    def body(pipe, out):
        x, dst, work = ub_tensor(pipe, "float32", 1000), ub_tensor(pipe, "float32", 8), ub_tensor(pipe, "float32", 64)
        fill(x, values)
        globals()[name](dst, x, work, 1000)
        out["y"] = dst.GetValue(0)
    assert run(body)["y"] == pytest.approx(float(fn(values)), rel=1e-5)


def test_reduce_max_index():
    values = RNG.standard_normal(256).astype(np.float32)

    def body(pipe, out):
        x, dst, work = ub_tensor(pipe, "float32", 256), ub_tensor(pipe, "float32", 8), ub_tensor(pipe, "float32", 8)
        fill(x, values)
        ReduceMax(dst, x, work, 256, True)
        out["index"] = dst.ReinterpretCast("int32").GetValue(1)
    assert run(body)["index"] == int(np.argmax(values))


def test_reduce_work_buffer_too_small():
    def body(pipe, out):
        x, dst, work = ub_tensor(pipe, "float32", 1024), ub_tensor(pipe, "float32", 8), ub_tensor(pipe, "float32", 8)
        ReduceSum(dst, x, work, 1024)
    with pytest.raises(ParamError, match="workLocal"):
        run(body)


def test_whole_reduce_per_repeat():
    values = RNG.standard_normal(256).astype(np.float32)

    def body(pipe, out):
        x, dst = ub_tensor(pipe, "float32", 256), ub_tensor(pipe, "float32", 8)
        fill(x, values)
        WholeReduceSum(dst, x, 64, 4, 1, 1, 8)
        out["sum"] = read(dst, 4, "float32")
        WholeReduceMax(dst, x, 64, 4, 1, 1, 8)
        out["max"] = read(dst, 4, "float32")
    out = run(body)
    np.testing.assert_allclose(out["sum"], values.reshape(4, 64).sum(1), rtol=1e-5)
    np.testing.assert_array_equal(out["max"], values.reshape(4, 64).max(1))


def test_duplicate_and_reduction_dtype_rules():
    def body(pipe, out):
        x = ub_tensor(pipe, "int32", 64)
        Duplicate(x, 7, 64)
        out["y"] = read(x, 64, "int32")
        ReduceSum(x, x, x, 64)
    with pytest.raises(DtypeError, match="float16/float32"):
        run(body)


def test_a_scalar_operand_is_a_number_never_an_array():
    """A host tensor passed as Duplicate's "scalar" was broadcast into UB: a copy-in that no MTE2 time paid for."""
    def body(pipe, out):
        dst = ub_tensor(pipe, "float32", 64)
        with pytest.raises(ParamError, match="must be a number, got ndarray"):
            Duplicate(dst, np.arange(64, dtype=np.float32), 64)
        with pytest.raises(ParamError, match="must be a number, got list"):
            Adds(dst, dst, [1.0] * 64, 64)
        Duplicate(dst, 2, 64)
        Muls(dst, dst, np.float32(0.5), 64)
        index = ub_tensor(pipe, "int32", 64)
        with pytest.raises(ParamError, match="firstValue must be a number, got list"):
            CreateVecIndex(index, list(range(64)), 64)

    run(body)


def test_repeat_strides_and_counts_are_integers_and_an_index_start_is_a_number():
    """A list in a repeat stride broadcast one instruction over a whole tile for two repeats' cost (1.29x on gelu)."""
    from sandboxes.targets.npu.vector import Repeat
    with pytest.raises(ParamError, match="repeat stride must be an integer"):
        Repeat(64, 2, [(1, [[8], [16]])])
    with pytest.raises(ParamError, match="repeatTimes must be an integer"):
        Repeat(64, 2.0, [(1, 8)])
    assert Repeat(64, np.int64(2), [(np.int32(1), 8)]).strides == [(1, 8)]
