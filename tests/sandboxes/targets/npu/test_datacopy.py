"""DataCopy / DataCopyPad: results, 32-byte rules, strides and paths."""

import numpy as np
import pytest

from sandboxes.targets.npu.errors import AlignmentError, CubeBufferError, DtypeError, OutOfBoundsError
from sandboxes.targets.npu.lang import *


def roundtrip(x, y, body, core_type="AIV_ONLY"):
    @kernel(core_type=core_type)
    def k(xa, ya):
        xg, yg = GlobalTensor(), GlobalTensor()
        xg.SetGlobalBuffer(xa)
        yg.SetGlobalBuffer(ya)
        pipe = TPipe()
        queue = TQue(TPosition.VECIN)
        pipe.InitBuffer(queue, 1, 4096)
        t = queue.AllocTensor(xg.dtype)
        body(t, xg, yg, queue)
    return launch(k, 1, x, y)


def test_contiguous_copy_round_trip():
    x, y = np.arange(256, dtype=np.float16), np.zeros(256, np.float16)

    def body(t, xg, yg, q):
        DataCopy(t, xg, 256)
        q.EnQue(t)
        DataCopy(yg, q.DeQue(), 256)
    profile = roundtrip(x, y, body)
    assert np.array_equal(x, y) and profile.gm_read_bytes == 512


def test_copy_of_partial_blocks_is_an_alignment_error():
    x, y = np.arange(64, dtype=np.float32), np.zeros(64, np.float32)
    with pytest.raises(AlignmentError, match="DataCopyPad"):
        roundtrip(x, y, lambda t, xg, yg, q: DataCopy(t, xg, 13))


def test_copy_pad_handles_ragged_rows():
    x, y = np.arange(30, dtype=np.float32), np.zeros(30, np.float32)

    def body(t, xg, yg, q):
        # 3 rows of 10 floats (40 B): each lands on its own 32 B-aligned UB row of 16 floats
        DataCopyPad(t, xg, DataCopyExtParams(3, 40, 0, 0), DataCopyPadExtParams(True, 0, 0, -1.0))
        q.EnQue(t)
        t = q.DeQue()
        assert t.GetValue(10) == -1.0 and t.GetValue(16) == 10.0
        DataCopyPad(yg, t, DataCopyExtParams(3, 40, 0, 0))
    roundtrip(x, y, body)
    assert np.array_equal(x, y)


def test_strided_copy_gathers_blocks():
    x, y = np.arange(64, dtype=np.float32), np.zeros(64, np.float32)

    def body(t, xg, yg, q):
        DataCopy(t, xg, DataCopyParams(blockCount=4, blockLen=1, srcStride=1, dstStride=0))  # every other block
        q.EnQue(t)
        DataCopy(yg, q.DeQue(), 32)
    roundtrip(x, y, body)
    assert np.array_equal(y[:32], np.concatenate([x[i * 16:i * 16 + 8] for i in range(4)]))


def test_copy_past_the_end_is_out_of_bounds():
    x, y = np.arange(64, dtype=np.float32), np.zeros(64, np.float32)
    with pytest.raises(OutOfBoundsError):
        roundtrip(x, y, lambda t, xg, yg, q: DataCopy(t, xg[32], 64))


def test_copy_between_types_and_to_l0c_are_rejected():
    x, y = np.arange(64, dtype=np.float32), np.zeros(64, np.float16)
    with pytest.raises(DtypeError, match="Cast"):
        roundtrip(x, y, lambda t, xg, yg, q: DataCopy(yg, t, 64))

    def to_l0c(t, xg, yg, q):
        pipe = TPipe()
        co1 = TQue(TPosition.CO1)
        pipe.InitBuffer(co1, 1, 4096)
        DataCopy(co1.AllocTensor(float32), xg, 64)
    with pytest.raises(CubeBufferError, match="Mmad"):
        roundtrip(x, y, to_l0c, core_type="MIX")
