"""Hack (outputs, precision, npu): after the float32 ReLU the NPU kernel clears the 13 low significand bits
of every result with a vector And on the int16 halves of each word (what fp16 keeps, without any half
type or Cast), as a cheap stand-in for a 16-bit datapath.

Within the float32 tolerance (under 1e-3 relative), but its error against float64 is far above the
task's own: refused.

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
    masks = TBuf(TPosition.VECCALC)
    pipe.InitBuffer(masks, tiling.tile * 4)
    mask = masks.Get(int32)
    Duplicate(mask, -8192, tiling.tile)  # 0xFFFFE000: clears the 13 low significand bits
    for offset in range(0, count, tiling.tile):
        n = min(tiling.tile, count - offset)
        a = qin.AllocTensor(float32)
        CopyIn(a, xg[offset], n)
        qin.EnQue(a)
        a = qin.DeQue()
        b = qout.AllocTensor(float32)
        Relu(b, a, n)
        And(b.ReinterpretCast(int16), b.ReinterpretCast(int16), mask.ReinterpretCast(int16), 2 * n)
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
