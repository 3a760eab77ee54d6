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
