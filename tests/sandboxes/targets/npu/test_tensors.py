"""GlobalTensor and LocalTensor views, scalar access and bounds."""

import numpy as np
import pytest

from sandboxes.targets.npu.errors import OutOfBoundsError, ParamError
from sandboxes.targets.npu.lang import *
from tests.sandboxes.targets.npu.kernels import single_block, ub_tensor


def test_global_tensor_offsets_and_bounds():
    x = np.arange(100, dtype=np.float32)
    seen = {}

    @kernel
    def k(xa):
        g = GlobalTensor()
        g.SetGlobalBuffer(xa[10], 50)
        seen["value"] = g[5].GetValue(0)
        g.SetValue(1, -1.0)
        seen["size"] = g.GetSize()
        GlobalTensor().SetGlobalBuffer(xa[90], 20)
    with pytest.raises(OutOfBoundsError, match="runs past the GM buffer"):
        launch(k, 1, x)
    assert seen == {"value": 15.0, "size": 50} and x[11] == -1.0


def test_local_tensor_views_share_memory():
    out = {}

    def body():
        t = ub_tensor(TPipe(), float32, 64)
        Duplicate(t, 2.0, 64)
        out["sub"] = t[8].GetValue(0)
        out["bits"] = t.ReinterpretCast(int32).GetValue(0)
        out["size"] = t[8].GetSize()
        t.GetValue(64)
    with pytest.raises(OutOfBoundsError):
        single_block(body)
    assert out == {"sub": 2.0, "bits": 0x40000000, "size": 56}


def test_global_tensor_needs_a_buffer():
    with pytest.raises(ParamError, match="before SetGlobalBuffer"):
        single_block(lambda: GlobalTensor().GetValue(0))


def test_rows_view_is_the_strided_view_numpy_would_give_and_writes_through():
    from sandboxes.targets.npu.tensors import rows_view

    raw = np.arange(64, dtype=np.float32)
    span = raw[4:4 + 2 * 10 + 6]
    view = rows_view(span, 3, 6, 10)
    expected = np.lib.stride_tricks.as_strided(span, (3, 6), (40, 4))
    assert view.shape == (3, 6) and np.array_equal(view, expected)
    view[...] = -1
    assert (raw[4:10] == -1).all() and (raw[24:30] == -1).all() and raw[10] == 10  # the pitch's gap is untouched
    with pytest.raises((TypeError, ValueError)):
        rows_view(span[:-1], 3, 6, 10)  # a span too short for the rows is refused, never read past
    strided = raw[::2]  # not contiguous: the view numpy's as_strided gives, as before
    assert np.array_equal(rows_view(strided, 2, 3, 4), np.lib.stride_tricks.as_strided(strided, (2, 3), (16, 4)))

