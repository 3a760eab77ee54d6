"""Every element-wise vector instruction against numpy, in the count and the repeat forms."""

import numpy as np
import pytest

from sandboxes.targets.npu.errors import AlignmentError, DtypeError, ParamError, QueuePositionError
from sandboxes.targets.npu.lang import *
from tests.sandboxes.targets.npu.kernels import single_block, ub_tensor

N = 200
RNG = np.random.default_rng(0)
BINARY = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "Div": np.divide, "Max": np.maximum,
          "Min": np.minimum}
UNARY = {"Exp": np.exp, "Ln": np.log, "Sqrt": np.sqrt, "Rsqrt": lambda a: 1 / np.sqrt(a),
         "Reciprocal": lambda a: 1 / a, "Abs": np.abs, "Relu": lambda a: np.maximum(a, 0)}
SCALAR = {"Adds": np.add, "Muls": np.multiply, "Maxs": np.maximum, "Mins": np.minimum,
          "LeakyRelu": lambda a, s: np.where(a >= 0, a, a * s)}
INSTRUCTIONS = {name: obj for name, obj in globals().items() if name in {**BINARY, **UNARY, **SCALAR}}


def run_vector(dtype, inputs, call):
    """Load ``inputs`` into UB, run ``call(dst, *srcs)``, return dst as numpy."""
    out = {}

    def body():
        pipe = TPipe()
        srcs = [ub_tensor(pipe, dtype, N) for _ in inputs]
        for tensor, values in zip(srcs, inputs):
            for i, v in enumerate(values):
                tensor.SetValue(i, v)
        dst = ub_tensor(pipe, dtype, N)
        call(dst, *srcs)
        out["y"] = np.array([dst.GetValue(i) for i in range(N)], dtype=np.dtype(dtype))
    single_block(body)
    return out["y"]


def positive(dtype):
    return (RNG.random(N) + 0.5).astype(dtype)


def signed(dtype):
    return RNG.standard_normal(N).astype(dtype)


@pytest.mark.parametrize("dtype", ["float32", "float16"])
@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_matches_numpy(name, dtype):
    a, b = signed(dtype), positive(dtype)
    got = run_vector(dtype, [a, b], lambda d, x, y: INSTRUCTIONS[name](d, x, y, N))
    want = BINARY[name](a.astype(np.float32), b.astype(np.float32)).astype(dtype)
    np.testing.assert_allclose(got, want, rtol=1e-3 if dtype == "float16" else 1e-6)


@pytest.mark.parametrize("dtype", ["float32", "float16"])
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_matches_numpy(name, dtype):
    a = positive(dtype)
    got = run_vector(dtype, [a], lambda d, x: INSTRUCTIONS[name](d, x, N))
    np.testing.assert_allclose(got, UNARY[name](a.astype(np.float32)).astype(dtype), rtol=1e-3)


@pytest.mark.parametrize("name", sorted(SCALAR))
def test_scalar_operand_matches_numpy(name):
    a = signed("float32")
    got = run_vector("float32", [a], lambda d, x: INSTRUCTIONS[name](d, x, 0.25, N))
    np.testing.assert_allclose(got, SCALAR[name](a, np.float32(0.25)), rtol=1e-6)


def test_int32_add_wraps_like_the_hardware():
    a = np.array([2**31 - 1] * N, dtype=np.int32)
    got = run_vector("int32", [a, np.ones(N, np.int32)], lambda d, x, y: Add(d, x, y, N))
    assert got[0] == -(2**31)


def test_axpy():
    a, b = signed("float32"), signed("float32")
    got = run_vector("float32", [a, b], lambda d, x, y: (DataCopy(d, y, 192), Axpy(d, x, 2.0, 192)))
    np.testing.assert_allclose(got[:192], a[:192] * 2 + b[:192], rtol=1e-6)


def test_repeat_form_with_mask_and_strides():
    a, b = signed("float32"), signed("float32")
    # two repeats of 64 fp32 lanes, first 10 lanes only; src1 advances one DataBlock per repeat
    params = BinaryRepeatParams(1, 1, 1, 8, 8, 1)
    got = run_vector("float32", [a, b], lambda d, x, y: (Duplicate(d, 0.0, N), Add(d, x, y, 10, 2, params)))
    want = np.zeros(N, np.float32)
    want[:10] = a[:10] + b[:10]
    want[64:74] = a[64:74] + b[8:18]
    np.testing.assert_allclose(got, want, rtol=1e-6)


def test_bit_mask_selects_lanes():
    a = signed("float32")
    got = run_vector("float32", [a], lambda d, x: (Duplicate(d, 0.0, N), Abs(d, x, [0, 0b101], 1, UnaryRepeatParams())))
    assert got[0] == abs(a[0]) and got[2] == abs(a[2]) and got[1] == 0 and got[3] == 0


def test_repeat_times_over_255_is_rejected():
    with pytest.raises(ParamError, match="repeatTimes"):
        run_vector("float32", [signed("float32")], lambda d, x: Abs(d, x, 64, 256, UnaryRepeatParams()))


def test_misaligned_operand_is_rejected():
    with pytest.raises(AlignmentError, match="multiple of 32"):
        run_vector("float32", [signed("float32")], lambda d, x: Abs(d, x[3], 8))


def test_unsupported_dtype_is_rejected():
    with pytest.raises(DtypeError, match="Cast to float32"):
        run_vector("bfloat16", [signed("float32")], lambda d, x: Exp(d, x, N))


def test_vector_instruction_on_l1_is_a_position_error():
    def body():
        pipe = TPipe()
        queue = TQue(TPosition.A1)
        pipe.InitBuffer(queue, 1, 1024)
        tensor = queue.AllocTensor(float32)
        Abs(tensor, tensor, 64)

    @kernel(core_type="MIX")
    def mixed():
        body()
    with pytest.raises(QueuePositionError, match="UB tensors"):
        launch(mixed, 1)


@pytest.mark.parametrize("name,fn", [("And", np.bitwise_and), ("Or", np.bitwise_or)])
def test_bitwise_instructions(name, fn):
    a = RNG.integers(-1000, 1000, N).astype(np.int16)
    b = RNG.integers(-1000, 1000, N).astype(np.int16)
    got = run_vector("int16", [a, b], lambda d, x, y: globals()[name](d, x, y, N))
    np.testing.assert_array_equal(got, fn(a, b))
