"""Template text of the global_norm family: x divided by its Frobenius norm, as full_reduce's sum of
squares (per-core partial sums, a one-core combine) and a scaling pass that reads the sum from GM."""

from sandboxes.targets.npu.templates.src import full_reduce

HEADER = r'''TILE_LENGTH = ${TILE_LENGTH}
"""Elements per tile of both passes."""
BUFFER_NUM = ${BUFFER_NUM}
"""Buffers per queue: 2 overlaps loading with the work on the current tile."""
BLOCK_DIM = ${BLOCK_DIM}
"""Cores of the reduction's first pass and of the scaling pass."""
INPUTS, PROLOGUE, REDUCE = 1, True, "sum"
'''

BODY = r'''

@kernel
def scale_kernel(x, total, y, tiling):
    """y = x / sqrt(total[0]), tile by tile (total: the sum of squares the reduction wrote)."""
    start, count = BlockSpan(tiling.total)
    if count == 0:
        return
    xGm, tGm, yGm = GlobalTensor(), GlobalTensor(), GlobalTensor()
    xGm.SetGlobalBuffer(x[start], count)
    tGm.SetGlobalBuffer(total, 1)
    yGm.SetGlobalBuffer(y[start], count)
    scale = 1.0 / ScalarSqrt(tGm.GetValue(0))
    pipe = TPipe()
    inQueue, outQueue = TQue(TPosition.VECIN), TQue(TPosition.VECOUT)
    pipe.InitBuffer(inQueue, BUFFER_NUM, AlignedCount(tiling.tile, xGm.dtype) * sizeof(xGm.dtype))
    pipe.InitBuffer(outQueue, BUFFER_NUM, AlignedCount(tiling.tile, xGm.dtype) * sizeof(xGm.dtype))
    for offset in range(0, count, tiling.tile):
        n = min(tiling.tile, count - offset)
        x = inQueue.AllocTensor(xGm.dtype)
        CopyIn(x, xGm[offset], n)
        inQueue.EnQue(x)
        x = inQueue.DeQue()
        y = outQueue.AllocTensor(xGm.dtype)
        Muls(y, x, scale, n)
        outQueue.EnQue(y)
        inQueue.FreeTensor(x)
        y = outQueue.DeQue()
        CopyOut(yGm[offset], y, n)
        outQueue.FreeTensor(y)


def run_global_norm(x):
    """Host side: x / ||x||_F (the sum of squares first, then the scaling pass)."""
    x = x.contiguous()
    total = run_full_reduce(x)
    y = torch.empty_like(x)
    launch(scale_kernel, BLOCK_DIM, x, total.reshape(1), y, FullReduceTiling(x.numel(), TILE_LENGTH, BLOCK_DIM, 1))
    return y
'''

SOURCE = HEADER + full_reduce.COMBINE + full_reduce.BODY + BODY
