"""Accepted: NPU add in the Ascend C class style (Init / Process / CopyIn / Compute / CopyOut), with a
module-level host helper that tiles and launches."""

import torch
import torch.nn as nn

from sandboxes.targets.npu.lang import *

TILE = 1024
BLOCKS = 4


class AddTiling(TilingData):
    total: int
    tile: int


class AddKernel:
    def __init__(self, a, b, out, tiling):
        start, self.count = BlockSpan(tiling.total)
        self.tile = tiling.tile
        self.a_gm, self.b_gm, self.out_gm = GlobalTensor(), GlobalTensor(), GlobalTensor()
        self.pipe = TPipe()
        self.a_queue, self.b_queue = TQue(TPosition.VECIN), TQue(TPosition.VECIN)
        self.out_queue = TQue(TPosition.VECOUT)
        if self.count > 0:
            self.a_gm.SetGlobalBuffer(a[start], self.count)
            self.b_gm.SetGlobalBuffer(b[start], self.count)
            self.out_gm.SetGlobalBuffer(out[start], self.count)
            nbytes = self.tile * sizeof(self.a_gm.dtype)
            for queue in (self.a_queue, self.b_queue, self.out_queue):
                self.pipe.InitBuffer(queue, 2, nbytes)

    def Process(self):
        for offset in range(0, self.count, self.tile):
            n = min(self.tile, self.count - offset)
            self.CopyIn(offset, n)
            self.Compute(n)
            self.CopyOut(offset, n)

    def CopyIn(self, offset, n):
        a, b = self.a_queue.AllocTensor(self.a_gm.dtype), self.b_queue.AllocTensor(self.b_gm.dtype)
        CopyIn(a, self.a_gm[offset], n)
        CopyIn(b, self.b_gm[offset], n)
        self.a_queue.EnQue(a)
        self.b_queue.EnQue(b)

    def Compute(self, n):
        a, b = self.a_queue.DeQue(), self.b_queue.DeQue()
        out = self.out_queue.AllocTensor(self.a_gm.dtype)
        Add(out, a, b, n)
        self.out_queue.EnQue(out)
        self.a_queue.FreeTensor(a)
        self.b_queue.FreeTensor(b)

    def CopyOut(self, offset, n):
        out = self.out_queue.DeQue()
        CopyOut(self.out_gm[offset], out, n)
        self.out_queue.FreeTensor(out)


@kernel
def add_kernel(a, b, out, tiling):
    AddKernel(a, b, out, tiling).Process()


def run_add(a, b):
    """Host side: contiguous inputs, the output buffer, the tiling and the launch."""
    a, b = a.contiguous(), b.contiguous()
    out = torch.empty_like(a)
    launch(add_kernel, BLOCKS, a, b, out, AddTiling(a.numel(), TILE))
    return out


class ModelNew(nn.Module):
    def forward(self, a, b):
        return run_add(a, b)
