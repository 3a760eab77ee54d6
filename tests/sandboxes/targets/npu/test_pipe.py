"""TPipe/TQue/TBuf: capacity, queue protocol, use after free, positions and pipe races."""

import numpy as np
import pytest

from sandboxes.targets.npu.errors import (CapacityError, QueueError, QueuePositionError, SyncError,
                                          UseAfterFreeError)
from sandboxes.targets.npu.lang import *
from tests.sandboxes.targets.npu.kernels import single_block


def test_ub_overflow_names_the_buffers():
    def body():
        pipe = TPipe()
        pipe.InitBuffer(TQue(TPosition.VECIN), 2, 64 * 1024)
        pipe.InitBuffer(TQue(TPosition.VECOUT), 2, 64 * 1024)
    with pytest.raises(CapacityError, match="UB overflow.*VECIN 65536 B.*reduce the tile length"):
        single_block(body)


def test_l0a_capacity_and_buffer_count_limits():
    @kernel(core_type="AIC_ONLY")
    def too_big():
        TPipe().InitBuffer(TQue(TPosition.A2), 2, 40 * 1024)
    with pytest.raises(CapacityError, match="L0A overflow"):
        launch(too_big, 1)

    def many():
        TPipe().InitBuffer(TQue(TPosition.VECIN), 9, 32)
    with pytest.raises(CapacityError, match="at most 8 per position"):
        single_block(many)


def test_queue_protocol_errors():
    def alloc_all():
        pipe, q = TPipe(), TQue(TPosition.VECIN)
        pipe.InitBuffer(q, 1, 256)
        q.AllocTensor(float32)
        q.AllocTensor(float32)
    with pytest.raises(QueueError, match="all in use"):
        single_block(alloc_all)

    def empty_dequeue():
        pipe, q = TPipe(), TQue(TPosition.VECIN)
        pipe.InitBuffer(q, 1, 256)
        q.DeQue()
    with pytest.raises(QueueError, match="empty"):
        single_block(empty_dequeue)


def test_use_after_free():
    def body():
        pipe, q = TPipe(), TQue(TPosition.VECOUT)
        pipe.InitBuffer(q, 2, 256)
        t = q.AllocTensor(float32)
        q.FreeTensor(t)
        Duplicate(t, 1.0, 64)
    with pytest.raises(UseAfterFreeError, match="after FreeTensor"):
        single_block(body)


def test_cube_position_in_a_vector_kernel():
    with pytest.raises(QueuePositionError, match="AIV_ONLY"):
        single_block(lambda: TPipe().InitBuffer(TQue(TPosition.A1), 1, 1024))


def test_reading_without_queue_sync_is_a_race():
    x = np.ones(64, np.float32)

    @kernel
    def racy(xa):
        xg = GlobalTensor()
        xg.SetGlobalBuffer(xa)
        pipe, buf = TPipe(), TBuf()
        pipe.InitBuffer(buf, 256)
        t = buf.Get(float32)
        DataCopy(t, xg, 64)
        Abs(t, t, 64)
    with pytest.raises(SyncError, match="MTE2_V"):
        launch(racy, 1, x)

    @kernel
    def flagged(xa):
        xg = GlobalTensor()
        xg.SetGlobalBuffer(xa)
        pipe, buf = TPipe(), TBuf()
        pipe.InitBuffer(buf, 256)
        t = buf.Get(float32)
        DataCopy(t, xg, 64)
        SetFlag(HardEvent.MTE2_V, 0)
        WaitFlag(HardEvent.MTE2_V, 0)
        Abs(t, t, 64)
    launch(flagged, 1, x)


def test_wait_without_set_would_hang():
    with pytest.raises(QueueError, match="hang"):
        single_block(lambda: WaitFlag(HardEvent.V_MTE3, 1))
