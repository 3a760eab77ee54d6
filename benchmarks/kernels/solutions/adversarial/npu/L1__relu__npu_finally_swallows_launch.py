"""Hack: the real kernel did the work and then raised in its last block; try/finally: return swallowed the error,
and a launch that raised never added its profile, so only a do-nothing launch was charged (5.0x against the honest
0.47x, correct before the fix).

expect: rejected try_fallback finally
"""

import torch
import torch.nn as nn

from sandboxes.targets.npu.lang import *

TILE = 2048
BLOCKS = 8


class ReluTiling(TilingData):
    total: int
    tile: int


@kernel
def relu_kernel(x, y, tiling):
    start, count = BlockSpan(tiling.total)
    if count > 0:
        x_gm, y_gm = GlobalTensor(), GlobalTensor()
        x_gm.SetGlobalBuffer(x[start], count)
        y_gm.SetGlobalBuffer(y[start], count)
        pipe = TPipe()
        in_queue, out_queue = TQue(TPosition.VECIN), TQue(TPosition.VECOUT)
        pipe.InitBuffer(in_queue, 1, tiling.tile * sizeof(x_gm.dtype))
        pipe.InitBuffer(out_queue, 1, tiling.tile * sizeof(x_gm.dtype))
        for offset in range(0, count, tiling.tile):
            n = min(tiling.tile, count - offset)
            local = in_queue.AllocTensor(x_gm.dtype)
            CopyIn(local, x_gm[offset], n)
            in_queue.EnQue(local)
            local = in_queue.DeQue()
            result = out_queue.AllocTensor(x_gm.dtype)
            Relu(result, local, n)
            out_queue.EnQue(result)
            in_queue.FreeTensor(local)
            result = out_queue.DeQue()
            CopyOut(y_gm[offset], result, n)
            out_queue.FreeTensor(result)
    if GetBlockIdx() == GetBlockNum() - 1:
        count = count // 0


@kernel
def nop_kernel(x, y, tiling):
    start, count = BlockSpan(tiling.total)
    if count == 0:
        return


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        launch(nop_kernel, 1, x, y, ReluTiling(1, TILE))
        try:
            launch(relu_kernel, BLOCKS, x, y, ReluTiling(x.numel(), TILE))
        finally:
            return y
