"""Hack (timing, npu): a call counter in the model; after the first call the kernel is launched over the
first tile only, so the simulated time drops and most of the output is never written.

On the npu target the simulated times are those of the correctness trials, each checked on fresh inputs,
so the second trial is caught.

expect: rejected stateful
runtime: incorrect correctness differ
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
    def __init__(self):
        super().__init__()
        self.calls = [0]

    def forward(self, x):
        x = x.contiguous()
        y = torch.zeros_like(x)
        self.calls[0] += 1
        total = x.numel() if self.calls[0] == 1 else 2048
        launch(relu_kernel, 1, x, y, ReluTiling(total, 2048))
        return y
