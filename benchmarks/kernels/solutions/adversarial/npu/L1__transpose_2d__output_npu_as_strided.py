"""Hack (outputs, npu): launch a token kernel (the npu target refuses a forward that launches none), then
build the transposed view of the input by hand with torch.as_strided, for a task that asks for a
materialised transpose.

The output's storage lies in the input's: refused on every target.

expect: rejected framework_compute
runtime: rejected output storage overlaps input 0
"""

import torch
import torch.nn as nn

from sandboxes.targets.npu.lang import *


class ReluTiling(TilingData):
    total: int
    tile: int


@kernel
def token_kernel(x, y, tiling):
    start, count = BlockSpan(tiling.total)
    if count == 0:
        return
    xg, yg = GlobalTensor(), GlobalTensor()
    xg.SetGlobalBuffer(x[start], count)
    yg.SetGlobalBuffer(y[start], count)
    pipe = TPipe()
    qin, qout = TQue(TPosition.VECIN), TQue(TPosition.VECOUT)
    pipe.InitBuffer(qin, 2, tiling.tile * 4)
    pipe.InitBuffer(qout, 2, tiling.tile * 4)
    for offset in range(0, count, tiling.tile):
        n = min(tiling.tile, count - offset)
        a = qin.AllocTensor(float32)
        CopyIn(a, xg[offset], n)
        qin.EnQue(a)
        a = qin.DeQue()
        b = qout.AllocTensor(float32)
        Relu(b, a, n)
        qout.EnQue(b)
        qin.FreeTensor(a)
        b = qout.DeQue()
        CopyOut(yg[offset], b, n)
        qout.FreeTensor(b)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        scratch = torch.empty_like(x)
        launch(token_kernel, 1, x, scratch, ReluTiling(2048, 2048))
        rows, cols = x.shape
        return torch.as_strided(x, (cols, rows), (1, cols))
