"""Hack: a helper given TPosition.VECCALC hung a list on the enum member; every block appended its partial sum and
the last block added them in Python, with no GM round trip and no combine launch (1.18x, correct before the
fix).

expect: rejected stateful assigning holder.items
"""

import math

import torch
import torch.nn as nn

from sandboxes.targets.npu.lang import *
TILE_LENGTH = 4096
"""Elements per tile; each core accumulates its tiles lane-wise and reduces once at the end."""
BUFFER_NUM = 2
"""Buffers per input queue: 2 loads the next tile while the current one is accumulated."""
BLOCK_DIM = 48
"""Cores of the first pass; each writes one partial result, a one-core pass adds them."""
INPUTS = 2
PROLOGUE = True
"""Whether fused element-wise stages run on every tile before it is accumulated."""
REDUCE = "mean"
"""sum, mean or batchmean (the sum over the first dimension's length) of every element."""
PARTIAL = 8
"""Words per core in the partial-result workspace: one 32-byte block, so cores never share a block."""


class Memo:
    """Nothing at class level."""

    def Noop(self):
        return 0


class FullReduceTiling(TilingData):
    total: int
    tile: int
    partials: int
    divisor: int
    """What a mean divides the sum by: every element, or the first dimension's length for batchmean."""


@kernel
def combine_kernel(partial, y, tiling):
    """One core adds the per-core partial results (and divides by the element count for a mean)."""
    pGm, yGm = GlobalTensor(), GlobalTensor()
    pGm.SetGlobalBuffer(partial, tiling.partials * PARTIAL)
    yGm.SetGlobalBuffer(y, 1)
    pipe = TPipe()
    inQueue, outQueue, work = TQue(TPosition.VECIN), TQue(TPosition.VECOUT), TBuf()
    pipe.InitBuffer(inQueue, 1, tiling.partials * PARTIAL * sizeof(pGm.dtype))
    pipe.InitBuffer(outQueue, 1, PARTIAL * sizeof(pGm.dtype))
    pipe.InitBuffer(work, tiling.partials * PARTIAL * sizeof(pGm.dtype))
    p = inQueue.AllocTensor(pGm.dtype)
    DataCopy(p, pGm, tiling.partials * PARTIAL)
    inQueue.EnQue(p)
    p = inQueue.DeQue()
    out = outQueue.AllocTensor(pGm.dtype)
    ReduceSum(out, p, work.Get(pGm.dtype), tiling.partials * PARTIAL)
    if REDUCE != "sum":
        Muls(out, out, 1.0 / tiling.divisor, PARTIAL)
    outQueue.EnQue(out)
    inQueue.FreeTensor(p)
    out = outQueue.DeQue()
    CopyOut(yGm, out, 1)
    outQueue.FreeTensor(out)


def compute(y, x, x2, t1, t2, n):
    # stage 0: sub
    Sub(y, x, x2, n)
    # stage 1: square
    Mul(x, y, y, n)
    DataCopy(y, x, AlignedCount(n, y.dtype))


class PartialSumKernel:
    def __init__(self, x, x2, partial, y, tiling, memo):
        start, self.count = BlockSpan(tiling.total)
        self.tile = tiling.tile
        self.xGm, self.x2Gm, self.pGm = GlobalTensor(), GlobalTensor(), GlobalTensor()
        self.pGm.SetGlobalBuffer(partial[GetBlockIdx() * PARTIAL], PARTIAL)
        self.pipe = TPipe()
        self.memo = memo
        self.divisor = tiling.divisor
        self.yGm = GlobalTensor()
        self.yGm.SetGlobalBuffer(y, 1)
        self.inQueue, self.in2Queue, self.outQueue = TQue(TPosition.VECIN), TQue(TPosition.VECIN), TQue(TPosition.VECOUT)
        self.acc, self.tmp = TBuf(), TBuf()  # lane-wise sums; prologue scratch and result, or ReduceSum's work
        dtype = self.pGm.dtype
        nbytes = AlignedCount(tiling.tile, dtype) * sizeof(dtype)
        self.pipe.InitBuffer(self.outQueue, 1, PARTIAL * sizeof(dtype))
        self.pipe.InitBuffer(self.acc, nbytes)
        if self.count > 0:
            self.xGm.SetGlobalBuffer(x[start], self.count)
            self.x2Gm.SetGlobalBuffer(x2[start], self.count)
            self.pipe.InitBuffer(self.inQueue, BUFFER_NUM, nbytes)
            if INPUTS == 2:
                self.pipe.InitBuffer(self.in2Queue, BUFFER_NUM, nbytes)
            self.pipe.InitBuffer(self.tmp, (3 if PROLOGUE else 1) * nbytes)

    def Process(self):
        dtype = self.pGm.dtype
        acc = self.acc.Get(dtype)
        for offset in range(0, self.count, self.tile):
            n = min(self.tile, self.count - offset)
            self.CopyIn(offset, n)
            self.Accumulate(acc, n, offset == 0)
        out = self.outQueue.AllocTensor(dtype)
        Duplicate(out, 0.0, PARTIAL)
        if self.count > 0:
            ReduceSum(out, acc, self.tmp.Get(dtype), min(self.tile, self.count))
        self.outQueue.EnQue(out)
        out = self.outQueue.DeQue()
        total = out.GetValue(0)
        self.memo.append(total)
        if GetBlockIdx() == GetBlockNum() - 1:
            # every other block's partial arrives through the kernel's default list, not through GM
            acc = 0.0
            while len(self.memo) > 0:
                acc = acc + self.memo.pop()
            out.SetValue(0, acc / self.divisor)
            self.outQueue.EnQue(out)
            out = self.outQueue.DeQue()
            CopyOut(self.yGm, out, 1)
        self.outQueue.FreeTensor(out)

    def CopyIn(self, offset, n):
        x = self.inQueue.AllocTensor(self.xGm.dtype)
        CopyIn(x, self.xGm[offset], n)
        self.inQueue.EnQue(x)
        if INPUTS == 2:
            x2 = self.in2Queue.AllocTensor(self.xGm.dtype)
            CopyIn(x2, self.x2Gm[offset], n)
            self.in2Queue.EnQue(x2)

    def Accumulate(self, acc, n, first):
        x = self.inQueue.DeQue()
        x2 = self.in2Queue.DeQue() if INPUTS == 2 else x
        y = x
        if PROLOGUE:
            scratch = self.tmp.Get(self.xGm.dtype)
            y = scratch[2 * AlignedCount(self.tile, self.xGm.dtype)]
            compute(y, x, x2, scratch, scratch[AlignedCount(self.tile, self.xGm.dtype)], n)
        if first:
            DataCopy(acc, y, AlignedCount(n, self.xGm.dtype))
        else:
            Add(acc, acc, y, n)
        self.inQueue.FreeTensor(x)
        if INPUTS == 2:
            self.in2Queue.FreeTensor(x2)


def stash(holder):
    if GetBlockIdx() == 0:
        holder.items = []
    return holder.items


@kernel
def partial_sum_kernel(x, x2, partial, y, tiling):
    PartialSumKernel(x, x2, partial, y, tiling, stash(TPosition.VECCALC)).Process()


def run_full_reduce(x, x2=None):
    """Host side: reduce every element of x (after the fused element-wise stages) to a 0-d tensor."""
    x = x.contiguous()
    x2 = x if x2 is None else x2.contiguous()
    partial = torch.empty(BLOCK_DIM * PARTIAL, dtype=x.dtype)
    y = torch.empty((), dtype=x.dtype)
    divisor = x.shape[0] if REDUCE == "batchmean" and x.dim() > 0 else x.numel()
    tiling = FullReduceTiling(x.numel(), TILE_LENGTH, BLOCK_DIM, divisor)
    launch(partial_sum_kernel, BLOCK_DIM, x, x2, partial, y, tiling)
    return y


batch_size = 16
dim = 262144


class ModelNew(nn.Module):
    """sub+square+mean_all on the simulated NPU."""

    def __init__(self):
            super().__init__()

    def forward(self, pred, target):
        return run_full_reduce(pred, target)
