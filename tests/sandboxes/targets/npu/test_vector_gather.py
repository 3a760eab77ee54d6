"""CreateVecIndex, Gather and CumSum against numpy, and their rule checks."""

import numpy as np
import pytest

from sandboxes.targets.npu.errors import DtypeError, OutOfBoundsError, ParamError
from sandboxes.targets.npu.lang import *
from tests.sandboxes.targets.npu.kernels import fill, read, run, ub_tensor

RNG = np.random.default_rng(2)


def test_create_vec_index_and_gather_permute():
    values = RNG.standard_normal(64).astype(np.float32)
    order = RNG.permutation(64)

    def body(pipe, out):
        src, dst, offsets = ub_tensor(pipe, "float32", 64), ub_tensor(pipe, "float32", 64), ub_tensor(pipe, "int32", 64)
        fill(src, values)
        CreateVecIndex(offsets, 3, 64)
        out["index"] = read(offsets, 64, "int32")
        fill(offsets, order * 4)
        Gather(dst, src, offsets, 0, 64)
        out["gathered"] = read(dst, 64, "float32")
        Gather(dst, src, offsets, 8, 8)  # srcBaseAddr shifts every read by two floats
        out["shifted"] = read(dst, 8, "float32")
    result = run(body)
    np.testing.assert_array_equal(result["index"], np.arange(3, 67))
    np.testing.assert_array_equal(result["gathered"], values[order])
    np.testing.assert_array_equal(result["shifted"], values[order[:8] + 2])


def test_gather_rejects_bad_offsets():
    def body(offset, dtype="int32"):
        def inner(pipe, out):
            src, dst, offsets = ub_tensor(pipe, "float32", 8), ub_tensor(pipe, "float32", 8), ub_tensor(pipe, dtype, 8)
            Duplicate(offsets, offset, 8)
            Gather(dst, src, offsets, 0, 8)
        return inner
    with pytest.raises(OutOfBoundsError):
        run(body(32))
    with pytest.raises(ParamError, match="multiples"):
        run(body(2))
    with pytest.raises(DtypeError, match="int32"):
        run(body(0, "int16"))


def test_gather_into_its_own_source_and_offsets_aligned_by_the_base_address():
    values = RNG.standard_normal(16).astype(np.float32)

    def body(pipe, out):
        data, offsets = ub_tensor(pipe, "float32", 16), ub_tensor(pipe, "int32", 16)
        fill(data, values)
        fill(offsets, np.arange(15, -1, -1) * 4 - 2)  # every offset 2 bytes short: srcBaseAddr 2 aligns them
        Gather(data, data, offsets, 2, 16)
        out["reversed"] = read(data, 16, "float32")
    np.testing.assert_array_equal(run(body)["reversed"], values[::-1])

    def negative(pipe, out):
        src, dst, offsets = ub_tensor(pipe, "float32", 8), ub_tensor(pipe, "float32", 8), ub_tensor(pipe, "int32", 8)
        Duplicate(offsets, -8, 8)
        Gather(dst, src, offsets, 4, 8)
    with pytest.raises(OutOfBoundsError, match="element -1 "):
        run(negative)


def test_cumsum_matches_numpy():
    values = RNG.standard_normal(200).astype(np.float32)

    def body(pipe, out):
        src, dst = ub_tensor(pipe, "float32", 200), ub_tensor(pipe, "float32", 200)
        fill(src, values)
        CumSum(dst, src, 200)
        out["y"] = read(dst, 200, "float32")
    np.testing.assert_allclose(run(body)["y"], np.cumsum(values), rtol=1e-5, atol=1e-5)
