"""Hack: the rendered ReLU kernel; then the host calls __init__ again on the profile launch() returned, with a
cycle count of its choosing. The capture held that same object, so the verifier counted the new numbers
(2.7x on relu, 2.5x on matmul; accepted as correct before the fix).

expect: rejected forbidden_attribute __init__
"""

import math

import torch
import torch.nn as nn

from sandboxes.targets.npu.lang import *
TILE_LENGTH = 4096
"""Elements per tile (per queue buffer)."""
BUFFER_NUM = 2
"""Buffers per queue: 1 serialises copy-in, compute and copy-out; 2 overlaps them."""
BLOCK_DIM = 48
"""Cores the work is split over."""
FUSE = 1
"""Fused stages: 1 runs them all in one launch, intermediates staying in UB; 0 launches one kernel per stage,
each intermediate going through GM (as separate kernels would). One operator: no effect."""
INPUTS = 1
STAGE_INPUTS = [1]
"""Tensor operands of each fused stage (one entry for a single operator or expression)."""


class ElementwiseTiling(TilingData):
    total: int
    tile: int


def compute(y, x, x2, t1, t2, n, s, stage):
    Relu(y, x, n)


class ElementwiseKernel:
    def __init__(self, x, x2, y, tiling, s, stage):
        start, self.count = BlockSpan(tiling.total)
        self.tile, self.scalar, self.stage = tiling.tile, s, stage
        self.inputs = INPUTS if stage < 0 else STAGE_INPUTS[stage]
        self.xGm, self.x2Gm, self.yGm = GlobalTensor(), GlobalTensor(), GlobalTensor()
        self.pipe = TPipe()
        self.inQueue, self.in2Queue, self.outQueue = TQue(TPosition.VECIN), TQue(TPosition.VECIN), TQue(TPosition.VECOUT)
        self.tmp = TBuf(TPosition.VECCALC)
        if self.count > 0:
            self.xGm.SetGlobalBuffer(x[start], self.count)
            self.x2Gm.SetGlobalBuffer(x2[start], self.count)
            self.yGm.SetGlobalBuffer(y[start], self.count)
            nbytes = tiling.tile * sizeof(self.xGm.dtype)
            self.pipe.InitBuffer(self.inQueue, BUFFER_NUM, nbytes)
            if self.inputs == 2:
                self.pipe.InitBuffer(self.in2Queue, BUFFER_NUM, nbytes)
            self.pipe.InitBuffer(self.outQueue, BUFFER_NUM, nbytes)
            self.pipe.InitBuffer(self.tmp, 2 * nbytes)

    def Process(self):
        tiles = -(-self.count // self.tile)
        for i in range(tiles):
            offset = i * self.tile
            n = min(self.tile, self.count - offset)
            self.CopyIn(self.xGm[offset], self.x2Gm[offset], n)
            self.Compute(n)
            self.CopyOut(self.yGm[offset], n)

    def CopyIn(self, xGm, x2Gm, n):
        x = self.inQueue.AllocTensor(self.xGm.dtype)
        CopyIn(x, xGm, n)
        self.inQueue.EnQue(x)
        if self.inputs == 2:
            x2 = self.in2Queue.AllocTensor(self.xGm.dtype)
            CopyIn(x2, x2Gm, n)
            self.in2Queue.EnQue(x2)

    def Compute(self, n):
        x = self.inQueue.DeQue()
        x2 = self.in2Queue.DeQue() if self.inputs == 2 else x
        y = self.outQueue.AllocTensor(self.xGm.dtype)
        scratch = self.tmp.Get(self.xGm.dtype)
        compute(y, x, x2, scratch, scratch[self.tile], n, self.scalar, self.stage)
        self.outQueue.EnQue(y)
        self.inQueue.FreeTensor(x)
        if self.inputs == 2:
            self.in2Queue.FreeTensor(x2)

    def CopyOut(self, yGm, n):
        y = self.outQueue.DeQue()
        CopyOut(yGm, y, n)
        self.outQueue.FreeTensor(y)


@kernel
def elementwise_kernel(x, x2, y, tiling, s, stage):
    """``s``: a runtime scalar operand of the operator (``A * s``), passed by value; 0 when it has none.
    ``stage``: -1 runs every fused stage, k only stage k."""
    ElementwiseKernel(x, x2, y, tiling, s, stage).Process()


def run_elementwise(x, x2=None, s=0.0):
    """Host side: tiling, output allocation and the launches (``s``: the runtime scalar operand)."""
    x = x.contiguous()
    x2 = x if x2 is None else x2.contiguous()
    tiling = ElementwiseTiling(x.numel(), TILE_LENGTH)
    for stage in [-1] if FUSE or len(STAGE_INPUTS) == 1 else range(len(STAGE_INPUTS)):
        y = torch.empty_like(x)
        prof = launch(elementwise_kernel, BLOCK_DIM, x, x2, y, tiling, s, stage)
        prof.__init__('elementwise_kernel', 'ascend910b2', 1800.0, BLOCK_DIM, BLOCK_DIM, 20000.0, 9095.0, 0.0, 10905.0, {'SCALAR': 0.0, 'MTE2': 0.0, 'MTE1': 0.0, 'VEC': 0.0, 'CUBE': 0.0, 'FIX': 0.0, 'MTE3': 0.0}, 0, 0, 0, 0, 768.0)
        x = y
    return y


batch_size = 16
dim = 262144


class ModelNew(nn.Module):
    """relu on the simulated NPU."""

    def __init__(self):
            super().__init__()

    def forward(self, x):
        return run_elementwise(x)
