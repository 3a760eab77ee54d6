"""Template text of the row_reduce family (${PARAM} placeholders are filled by templates.render_kernel)."""

from sandboxes.targets.npu.templates.src import stream

SOURCE = r'''TILE_LENGTH = ${TILE_LENGTH}
"""Elements of a row loaded per chunk."""
BUFFER_NUM = ${BUFFER_NUM}
"""Buffers of the input queue: 2 loads the next chunk while the current one is reduced."""
PREFETCH = ${PREFETCH}
"""1: each chunk's copy-in is issued while the chunk before it is reduced (ChunkStream); 0: when it is needed."""
BLOCK_DIM = ${BLOCK_DIM}
"""Cores; rows are split over them."""
REDUCE = "${REDUCE}"
"""sum, mean, max, min or argmax over the last dimension."""
WORDS = 2 if REDUCE == "argmax" else 1
"""Output words per row: argmax writes int64 indices as (low, high) int32 pairs."""


class RowTiling(TilingData):
    rows: int
    cols: int
    tile: int


class RowReduceKernel:
    def __init__(self, x, y, tiling):
        row0, self.nrows = BlockSpan(tiling.rows)
        self.cols, self.tile = tiling.cols, min(tiling.tile, tiling.cols)
        self.xGm, self.yGm = GlobalTensor(), GlobalTensor()
        self.pipe = TPipe()
        self.inQueue, self.outQueue = TQue(TPosition.VECIN), TQue(TPosition.VECOUT)
        self.acc, self.work = TBuf(), TBuf()
        if self.nrows > 0:
            self.xGm.SetGlobalBuffer(x[row0 * self.cols], self.nrows * self.cols)
            self.yGm.SetGlobalBuffer(y[row0 * WORDS], self.nrows * WORDS)
            size = sizeof(self.xGm.dtype)
            self.pipe.InitBuffer(self.inQueue, BUFFER_NUM, AlignedCount(self.tile, self.xGm.dtype) * size)
            out_words = AlignedCount(self.nrows * WORDS, self.yGm.dtype)
            self.pipe.InitBuffer(self.outQueue, 1, out_words * sizeof(self.yGm.dtype))
            self.pipe.InitBuffer(self.acc, AlignedCount(self.tile, self.xGm.dtype) * size)
            self.pipe.InitBuffer(self.work, AlignedCount(self.tile, self.xGm.dtype) * size)
            starts = range(0, self.cols, self.tile)
            self.stream = ChunkStream(self.inQueue, self.xGm, [(r * self.cols + c, min(self.tile, self.cols - c))
                                                               for r in range(self.nrows) for c in starts])

    def Process(self):
        if self.nrows == 0:
            return
        out = self.outQueue.AllocTensor(self.yGm.dtype)
        for r in range(self.nrows):
            if REDUCE == "argmax":
                out.SetValue(2 * r, self.ArgmaxRow(r))
                out.SetValue(2 * r + 1, 0)
            else:
                out.SetValue(r, self.ReduceRow(r))
        self.outQueue.EnQue(out)
        out = self.outQueue.DeQue()
        CopyOut(self.yGm, out, self.nrows * WORDS)
        self.outQueue.FreeTensor(out)

    def ArgmaxRow(self, r):
        """Index of the first maximum: ReduceMax with calIndex per chunk, the best chunk kept on the scalar unit."""
        dtype = self.xGm.dtype
        acc, work = self.acc.Get(dtype), self.work.Get(dtype)
        best, best_index = -math.inf, 0
        chunks = -(-self.cols // self.tile)
        for c in range(chunks):
            start = c * self.tile
            x = self.stream.Next(r * chunks + c)
            ReduceMax(acc, x, work, min(self.tile, self.cols - start), True)
            value = acc.GetValue(0)
            if value > best:
                best, best_index = value, start + acc.ReinterpretCast(int32).GetValue(1)
            self.inQueue.FreeTensor(x)
        return best_index

    def ReduceRow(self, r):
        dtype = self.xGm.dtype
        acc, work = self.acc.Get(dtype), self.work.Get(dtype)
        chunks = -(-self.cols // self.tile)
        for c in range(chunks):
            start = c * self.tile
            n = min(self.tile, self.cols - start)
            x = self.stream.Next(r * chunks + c)
            if c == 0:
                DataCopy(acc, x, AlignedCount(n, dtype))
            elif REDUCE in ("sum", "mean"):
                Add(acc, acc, x, n)
            elif REDUCE == "max":
                Max(acc, acc, x, n)
            else:
                Min(acc, acc, x, n)
            self.inQueue.FreeTensor(x)
        width = min(self.tile, self.cols)
        if REDUCE in ("sum", "mean"):
            ReduceSum(acc, acc, work, width)
        elif REDUCE == "max":
            ReduceMax(acc, acc, work, width)
        else:
            ReduceMin(acc, acc, work, width)
        value = acc.GetValue(0)
        return value / self.cols if REDUCE == "mean" else value


@kernel
def row_reduce_kernel(x, y, tiling):
    RowReduceKernel(x, y, tiling).Process()


def run_row_reduce(x):
    """Host side: reduce the last dimension of x."""
    x = x.contiguous()
    cols = x.shape[-1]
    y = torch.empty(x.shape[:-1], dtype=torch.int64 if REDUCE == "argmax" else x.dtype)
    words = y.view(torch.int32) if REDUCE == "argmax" else y
    launch(row_reduce_kernel, BLOCK_DIM, x, words, RowTiling(x.numel() // cols, cols, TILE_LENGTH))
    return y
''' + stream.SOURCE
