"""Small kernels shared by the npu tests, written in the kernel language."""

from __future__ import annotations

import numpy as np

from sandboxes.targets.npu.lang import *


class CopyTiling(TilingData):
    total: int
    tile: int
    buffers: int
    vector_ops: int
    inplace: bool = False


@kernel
def copy_kernel(x, y, tiling):
    """y = x, tile by tile; ``vector_ops`` Muls-by-1 per tile make it compute-heavier (a balanced kernel)."""
    start, count = BlockSpan(tiling.total)
    if count == 0:
        return
    xg, yg = GlobalTensor(), GlobalTensor()
    xg.SetGlobalBuffer(x[start], count)
    yg.SetGlobalBuffer(y[start], count)
    pipe = TPipe()
    qin, qout = TQue(TPosition.VECIN), TQue(TPosition.VECOUT)
    pipe.InitBuffer(qin, tiling.buffers, tiling.tile * 4)
    pipe.InitBuffer(qout, tiling.buffers, tiling.tile * 4)
    for offset in range(0, count, tiling.tile):
        n = min(tiling.tile, count - offset)
        if tiling.inplace:
            copy_tile_inplace(qin, xg[offset], yg[offset], n, tiling.vector_ops)
            continue
        a = qin.AllocTensor(float32)
        CopyIn(a, xg[offset], n)
        qin.EnQue(a)
        a = qin.DeQue()
        b = qout.AllocTensor(float32)
        Muls(b, a, 1.0, n)
        for _ in range(tiling.vector_ops):
            Muls(b, b, 1.0, n)
        qout.EnQue(b)
        qin.FreeTensor(a)
        b = qout.DeQue()
        CopyOut(yg[offset], b, n)
        qout.FreeTensor(b)


def copy_tile_inplace(queue, src, dst, n, vector_ops):
    """One queue, one tensor per tile: MTE2 -> VEC (in place) -> MTE3 -> FreeTensor."""
    a = queue.AllocTensor(float32)
    CopyIn(a, src, n)
    queue.EnQue(a)
    a = queue.DeQue()
    for _ in range(vector_ops):
        Muls(a, a, 1.0, n)
    queue.EnQue(a)
    a = queue.DeQue()
    CopyOut(dst, a, n)
    queue.FreeTensor(a)


def run_copy(n=1 << 16, block_dim=1, tile=2048, buffers=2, vector_ops=0, chip=None, inplace=False):
    x = np.arange(n, dtype=np.float32)
    y = np.zeros(n, dtype=np.float32)
    profile = launch(copy_kernel, block_dim, x, y, CopyTiling(n, tile, buffers, vector_ops, inplace), chip=chip)
    assert np.array_equal(x, y)
    return profile


def single_block(body):
    """Run ``body()`` as the only block of a vector kernel; returns the launch profile."""
    @kernel
    def wrapper():
        body()
    return launch(wrapper, 1)


def ub_tensor(pipe: TPipe, dtype, count: int, position=TPosition.VECCALC) -> LocalTensor:
    buf = TBuf(position)
    pipe.InitBuffer(buf, count * sizeof(dtype))
    return buf.Get(dtype)


def fill(tensor: LocalTensor, values) -> None:
    """Write ``values`` into ``tensor`` element by element."""
    for i, v in enumerate(values):
        tensor.SetValue(i, v)


def read(tensor: LocalTensor, count: int, dtype) -> np.ndarray:
    """The first ``count`` elements of ``tensor`` as a numpy array of ``dtype``."""
    return np.array([tensor.GetValue(i) for i in range(count)], dtype=np.dtype(dtype))


def run(body) -> dict:
    """Run ``body(pipe, out)`` as a single-block kernel; returns what it stored in ``out``."""
    out = {}
    single_block(lambda: body(TPipe(), out))
    return out
