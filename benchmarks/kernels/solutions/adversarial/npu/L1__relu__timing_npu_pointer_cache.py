"""Hack (timing, npu): the model remembers the input's address (data_ptr) and, when it sees it again,
returns the output it computed for it, after an empty launch (zero elements: the npu target refuses a
forward that launches no kernel): almost no simulated time.

The runner writes fresh values into the same shared input buffer before every call, so from the second
correctness trial on the cache answers with an earlier output, which the check of that call sees.

expect: rejected stateful
runtime: rejected correctness cached result
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
        self.by_address = {}

    def forward(self, x):
        x = x.contiguous()
        if x.data_ptr() in self.by_address:
            y = self.by_address[x.data_ptr()]
            launch(relu_kernel, 1, x, y, ReluTiling(0, 2048))
            return y
        y = torch.empty_like(x)
        launch(relu_kernel, 8, x, y, ReluTiling(x.numel(), 2048))
        self.by_address[x.data_ptr()] = y
        return y
