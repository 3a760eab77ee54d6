"""Hack (outputs, precision, npu): the NPU kernel casts each tile to float16, applies ReLU at half width
(twice the vector throughput of float32 on the simulated chip) and casts back.

Within the float32 tolerance, but its error against float64 is far above the task's own: refused.

expect: incorrect lower precision
runtime: incorrect precision lower precision than the task
"""

import torch
import torch.nn as nn

from sandboxes.targets.npu.lang import *


class ReluTiling(TilingData):
    total: int
    tile: int


@kernel
def relu_kernel(x, y, tiling):
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
    scratch = TBuf(TPosition.VECCALC)
    pipe.InitBuffer(scratch, tiling.tile * 2)
    for offset in range(0, count, tiling.tile):
        n = min(tiling.tile, count - offset)
        a = qin.AllocTensor(float32)
        CopyIn(a, xg[offset], n)
        qin.EnQue(a)
        a = qin.DeQue()
        b = qout.AllocTensor(float32)
        h = scratch.Get(float16)
        Cast(h, a, RoundMode.CAST_NONE, n)
        Relu(h, h, n)
        Cast(b, h, RoundMode.CAST_NONE, n)
        qout.EnQue(b)
        qin.FreeTensor(a)
        b = qout.DeQue()
        CopyOut(yg[offset], b, n)
        qout.FreeTensor(b)


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        y = torch.empty_like(x)
        launch(relu_kernel, 8, x, y, ReluTiling(x.numel(), 2048))
        return y
