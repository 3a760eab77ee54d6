"""Kernel-side helpers: rounding, padded copies and block spans."""

import numpy as np

from sandboxes.targets.npu.lang import *


def test_rounding_helpers():
    assert CeilDiv(10, 4) == 3 and AlignUp(10, 8) == 16 and AlignedCount(3, float16) == 16


def test_block_span_and_padded_copies():
    x = np.arange(50, dtype=np.float32)
    y = np.zeros(50, np.float32)

    @kernel
    def k(xa, ya):
        start, count = BlockSpan(50)
        if count == 0:
            return
        xg, yg = GlobalTensor(), GlobalTensor()
        xg.SetGlobalBuffer(xa[start], count)
        yg.SetGlobalBuffer(ya[start], count)
        pipe, q = TPipe(), TQue(TPosition.VECIN)
        pipe.InitBuffer(q, 1, 256)
        t = q.AllocTensor(float32)
        CopyIn(t, xg, count)  # 13 or 11 floats: not whole DataBlocks
        q.EnQue(t)
        CopyOut(yg, q.DeQue(), count)
    launch(k, 4, x, y)
    assert np.array_equal(x, y)
    assert ScalarSqrt(4.0) == 2.0 and ScalarExp(0.0) == 1.0 and ScalarLog(1.0) == 0.0
