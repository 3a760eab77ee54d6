"""Hack: __init__ appends a holder to a class-level list through self.store.box (the root is self), forward hangs
the host input on it, and the kernel loads it into UB with Duplicate(dst, <host slice>, n): the scalar operand was
turned into an array and broadcast, charged as a vector copy with no MTE2 and no global-memory bytes (1.54x on
softmax, accepted as correct before the fix).

expect: rejected stateful Store.box
"""

import math

import torch
import torch.nn as nn

from sandboxes.targets.npu.lang import *
TILE_LENGTH = 4096
"""Elements of a row per chunk; rows longer than this take two passes (online max and sum)."""
BUFFER_NUM = 2
"""Buffers per queue: 2 overlaps loading, exp and storing."""
BLOCK_DIM = 48
"""Cores; rows are split over them."""
PREFETCH = 0
"""1: each chunk's copy-in is issued while the chunk before it is reduced (ChunkStream); 0: when it is needed."""
LOG = False
"""True for log-softmax."""


class SoftmaxTiling(TilingData):
    rows: int
    cols: int
    tile: int
    scale: float
    """The rows are multiplied by this first (attention's 1 / sqrt(head dim)); 1: plain softmax."""


class Holder:
    def __init__(self):
        self.xf = None


class Store:
    box = []

    def fetch(self):
        return self.box[-1]


class SoftmaxKernel:
    def __init__(self, x, y, tiling):
        row0, self.nrows = BlockSpan(tiling.rows)
        self.cols, self.tile = tiling.cols, min(tiling.tile, tiling.cols)
        self.scale = tiling.scale
        self.xGm, self.yGm = GlobalTensor(), GlobalTensor()
        self.pipe = TPipe()
        self.inQueue, self.outQueue = TQue(TPosition.VECIN), TQue(TPosition.VECOUT)
        self.work = TBuf()
        self.chunks = [(c, min(self.tile, self.cols - c)) for c in range(0, self.cols, self.tile)]
        if self.nrows > 0:
            self.xGm.SetGlobalBuffer(x[row0 * self.cols], self.nrows * self.cols)
            self.yGm.SetGlobalBuffer(y[row0 * self.cols], self.nrows * self.cols)
            self.padded = AlignedCount(self.tile, self.xGm.dtype)
            nbytes = self.padded * sizeof(self.xGm.dtype)
            self.pipe.InitBuffer(self.inQueue, BUFFER_NUM, nbytes)
            self.pipe.InitBuffer(self.outQueue, BUFFER_NUM, nbytes)
            self.pipe.InitBuffer(self.work, 2 * nbytes)
            rows = [r * self.cols for r in range(self.nrows)]
            self.stream = ChunkStream(self.inQueue, Store().fetch().xf[row0 * self.cols:], self.xGm.dtype,
                                      [(row + c, n) for row in rows for _ in range(2) for c, n in self.chunks])

    def Process(self):
        for r in range(self.nrows):
            row_max, row_sum = self.Statistics(r)
            if LOG:
                shift, scale = -(row_max + ScalarLog(row_sum)), 1.0
            else:
                shift, scale = -row_max, 1.0 / row_sum
            self.Normalise(r, self.yGm[r * self.cols], shift, scale)

    def Load(self, k, n):
        """Chunk k of the stream (each row's chunks twice: statistics, then normalisation), scaled."""
        x = self.stream.Next(k)
        if self.scale != 1.0:
            Muls(x, x, self.scale, n)
        return x

    def Statistics(self, r):
        """Pass 1: running max and sum of exp(x - max) over the chunks of row r."""
        scratch = self.work.Get(self.xGm.dtype)
        e, work = scratch, scratch[self.padded]
        row_max, row_sum = -math.inf, 0.0
        for c, (_, n) in enumerate(self.chunks):
            x = self.Load(2 * r * len(self.chunks) + c, n)
            ReduceMax(work, x, work, n)
            chunk_max = work.GetValue(0)
            Adds(e, x, -chunk_max, n)
            Exp(e, e, n)
            ReduceSum(work, e, work, n)
            chunk_sum = work.GetValue(0)
            self.inQueue.FreeTensor(x)
            new_max = max(row_max, chunk_max)
            row_sum = row_sum * ScalarExp(row_max - new_max) + chunk_sum * ScalarExp(chunk_max - new_max)
            row_max = new_max
        return row_max, row_sum

    def Normalise(self, r, out, shift, scale):
        """Pass 2: y = exp(x + shift) * scale, or x + shift for log-softmax."""
        for c, (start, n) in enumerate(self.chunks):
            x = self.Load((2 * r + 1) * len(self.chunks) + c, n)
            y = self.outQueue.AllocTensor(self.xGm.dtype)
            Adds(y, x, shift, n)
            if not LOG:
                Exp(y, y, n)
                Muls(y, y, scale, n)
            self.outQueue.EnQue(y)
            self.inQueue.FreeTensor(x)
            y = self.outQueue.DeQue()
            CopyOut(out[start], y, n)
            self.outQueue.FreeTensor(y)


@kernel
def softmax_kernel(x, y, tiling):
    SoftmaxKernel(x, y, tiling).Process()


def run_softmax(x, scale=1.0):
    """Host side: softmax over the last dimension of x * scale."""
    x = x.contiguous()
    cols = x.shape[-1]
    y = torch.empty_like(x)
    launch(softmax_kernel, BLOCK_DIM, x, y, SoftmaxTiling(x.numel() // cols, cols, TILE_LENGTH, scale))
    return y


class ChunkStream:
    """The copy-ins of a known sequence of (offset, count) chunks of ``gm`` through one VECIN queue.

    PREFETCH 0 issues a chunk's MTE2 copy when the kernel asks for the chunk. When the chunk before it
    ended with a scalar read (GetValue waits for the vector pipe, and the scalar unit issues nothing
    meanwhile), MTE2 idles through that wait. PREFETCH 1 issues the next chunk's copy as soon as the
    current one is handed out, so it runs under the current chunk's vector work. That needs a second
    queue buffer: with BUFFER_NUM 1 the order is the same as with PREFETCH 0.
    """

    def __init__(self, queue, gm, kind, chunks):
        self.queue, self.gm, self.kind, self.chunks = queue, gm, kind, chunks
        self.ahead = bool(PREFETCH) and BUFFER_NUM > 1
        if self.ahead:
            self.Issue(0)

    def Issue(self, k):
        """Copy chunk ``k`` of the sequence into a queue buffer (nothing past the last)."""
        if k < len(self.chunks):
            offset, n = self.chunks[k]
            x = self.queue.AllocTensor(self.kind)
            Duplicate(x, self.gm[offset:offset + n], n)
            self.queue.EnQue(x)

    def Next(self, k):
        """Chunk ``k`` in UB. The kernel asks for the chunks in sequence order and frees each into the queue
        before asking for the next (the stream keeps no position of its own: kernels keep no state across calls)."""
        if not self.ahead:
            self.Issue(k)
        x = self.queue.DeQue()
        if self.ahead:
            self.Issue(k + 1)
        return x


batch_size = 64
dim = 65536


class ModelNew(nn.Module):
    """softmax on the simulated NPU."""

    def __init__(self):
        super().__init__()
        self.holder = Holder()
        self.store = Store()
        self.store.box.append(self.holder)

    def forward(self, x):
        h = self.holder
        h.xf = x.contiguous().view(-1)
        return run_softmax(x)
