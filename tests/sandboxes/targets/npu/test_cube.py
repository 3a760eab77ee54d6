"""The cube path: Nd2Nz copy, LoadData into fractal L0 buffers, Mmad and Fixpipe."""

import numpy as np
import pytest

from sandboxes.targets.npu.errors import CubeBufferError, DtypeError
from sandboxes.targets.npu.fractal import from_nz, from_zn, from_zz, to_nz, to_zn, to_zz
from sandboxes.targets.npu.lang import *


@kernel(core_type="AIC_ONLY")
def small_matmul(a, b, c, tiling):
    """c[m, n] = a[m, k] @ b[k, n] in one tile (m, n, k passed in the tiling)."""
    ag, bg, cg = GlobalTensor(), GlobalTensor(), GlobalTensor()
    ag.SetGlobalBuffer(a)
    bg.SetGlobalBuffer(b)
    cg.SetGlobalBuffer(c)
    pipe = TPipe()
    queues = {p: TQue(p) for p in (TPosition.A1, TPosition.B1, TPosition.A2, TPosition.B2, TPosition.CO1)}
    for queue in queues.values():
        pipe.InitBuffer(queue, 1, 32 * 1024)
    m, n, k = tiling.m, tiling.n, tiling.k
    a1, b1 = queues[TPosition.A1].AllocTensor(ag.dtype), queues[TPosition.B1].AllocTensor(bg.dtype)
    DataCopy(a1, ag, Nd2NzParams(1, m, k, 0, k, AlignUp(m, 16), 1, 0))
    DataCopy(b1, bg, Nd2NzParams(1, k, n, 0, n, AlignUp(k, 16), 1, 0))
    queues[TPosition.A1].EnQue(a1)
    queues[TPosition.B1].EnQue(b1)
    a2, b2 = queues[TPosition.A2].AllocTensor(ag.dtype), queues[TPosition.B2].AllocTensor(bg.dtype)
    LoadData(a2, queues[TPosition.A1].DeQue(), LoadData2DParams(m, k))
    LoadData(b2, queues[TPosition.B1].DeQue(), LoadData2DParams(k, n))
    queues[TPosition.A2].EnQue(a2)
    queues[TPosition.B2].EnQue(b2)
    co1 = queues[TPosition.CO1].AllocTensor(cg.dtype if cg.dtype == "int32" else float32)
    Mmad(co1, queues[TPosition.A2].DeQue(), queues[TPosition.B2].DeQue(), MmadParams(m, n, k, True))
    queues[TPosition.CO1].EnQue(co1)
    Fixpipe(cg, queues[TPosition.CO1].DeQue(), FixpipeParams(m, n, n, tiling.quant))


class MmTiling(TilingData):
    m: int
    n: int
    k: int


def run_matmul(dtype, out_dtype, m=40, n=24, k=50, quant=None):
    rng = np.random.default_rng(0)
    a = (rng.standard_normal((m, k)) * 3).astype(dtype)
    b = (rng.standard_normal((k, n)) * 3).astype(dtype)
    c = np.zeros((m, n), out_dtype)
    tiling = MmTiling(m, n, k)
    tiling.quant = quant  # plain attribute, not a serialised field
    small_matmul_q = kernel(core_type="AIC_ONLY")(lambda a_, b_, c_: small_matmul(a_, b_, c_, tiling))
    profile = launch(small_matmul_q, 1, a, b, c)
    return a, b, c, profile


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_mmad_matches_numpy(dtype):
    a, b, c, profile = run_matmul(dtype, np.float32)
    np.testing.assert_allclose(c, a.astype(np.float32) @ b.astype(np.float32), rtol=1e-5, atol=1e-4)
    assert profile.busy["CUBE"] > 0 and profile.busy["MTE1"] > 0 and profile.busy["FIX"] > 0


def test_int8_mmad_accumulates_in_int32():
    a, b, c, _ = run_matmul(np.int8, np.int32)
    np.testing.assert_array_equal(c, a.astype(np.int32) @ b.astype(np.int32))


def test_fixpipe_quantises_to_half():
    a, b, c, _ = run_matmul("float16", np.float16, quant="F322F16")
    np.testing.assert_allclose(c, (a.astype(np.float32) @ b.astype(np.float32)).astype(np.float16), rtol=1e-3)


def test_fractal_layouts_round_trip():
    matrix = np.arange(32 * 16, dtype=np.float32).reshape(32, 16)
    assert np.array_equal(from_nz(to_nz(matrix, 8), 32, 16, 8), matrix)
    assert np.array_equal(from_zz(to_zz(matrix, 8), 32, 16, 8), matrix)
    assert np.array_equal(from_zn(to_zn(matrix, 8), 32, 16, 8), matrix)
    assert not np.array_equal(to_nz(matrix, 8), matrix.reshape(-1))


def test_mmad_on_ub_tensors_is_a_cube_buffer_error():
    @kernel(core_type="MIX")
    def wrong():
        pipe, q = TPipe(), TQue(TPosition.VECIN)
        pipe.InitBuffer(q, 1, 4096)
        t = q.AllocTensor(float16)
        Mmad(t, t, t, MmadParams(16, 16, 16))
    with pytest.raises(CubeBufferError, match="CO1"):
        launch(wrong, 1)


def test_mmad_type_rules():
    @kernel(core_type="AIC_ONLY")
    def wrong_types():
        pipe = TPipe()
        queues = [TQue(p) for p in (TPosition.CO1, TPosition.A2, TPosition.B2)]
        for q in queues:
            pipe.InitBuffer(q, 1, 4096)
        c, a, b = queues[0].AllocTensor(float16), queues[1].AllocTensor(float16), queues[2].AllocTensor(float16)
        Mmad(c, a, b, MmadParams(16, 16, 16))
    with pytest.raises(DtypeError, match="float16·float16→float16"):
        launch(wrong_types, 1)
