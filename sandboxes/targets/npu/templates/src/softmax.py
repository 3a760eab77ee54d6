"""Template text of the softmax family (${PARAM} placeholders are filled by templates.render_kernel).

``HEADER`` holds the placeholders, ``BODY`` the kernel; attention reuses the body."""

from sandboxes.targets.npu.templates.src import stream

HEADER = r'''TILE_LENGTH = ${TILE_LENGTH}
"""Elements of a row per chunk; rows longer than this take two passes (online max and sum)."""
BUFFER_NUM = ${BUFFER_NUM}
"""Buffers per queue: 2 overlaps loading, exp and storing."""
BLOCK_DIM = ${BLOCK_DIM}
"""Cores; rows are split over them."""
PREFETCH = ${PREFETCH}
"""1: each chunk's copy-in is issued while the chunk before it is reduced (ChunkStream); 0: when it is needed."""
LOG = ${LOG}
"""True for log-softmax."""
'''

BODY = r'''

class SoftmaxTiling(TilingData):
    rows: int
    cols: int
    tile: int
    scale: float
    """The rows are multiplied by this first (attention's 1 / sqrt(head dim)); 1: plain softmax."""


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
            self.stream = ChunkStream(self.inQueue, self.xGm,
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
''' + stream.SOURCE

SOURCE = HEADER + BODY
