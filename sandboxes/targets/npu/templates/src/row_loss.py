"""Template text of the row_loss family: losses built from one value per row (cross entropy, triplet
margin, hinge), each core adding its rows' values, then full_reduce's one-core combine for the mean."""

from sandboxes.targets.npu.templates.src import full_reduce, stream

HEADER = r'''TILE_LENGTH = ${TILE_LENGTH}
"""Elements of a row per chunk."""
BUFFER_NUM = ${BUFFER_NUM}
"""Buffers per input queue: 2 loads the next chunk while the current one is reduced."""
PREFETCH = ${PREFETCH}
"""1: each chunk's copy-in is issued while the chunk before it is reduced (ChunkStream); 0: when it is needed."""
BLOCK_DIM = ${BLOCK_DIM}
"""Cores; rows are split over them, each writes one partial sum."""
LOSS = "${LOSS}"
"""cross_entropy: logsumexp of the row minus its target's logit (targets int64, one per row);
triplet: max(||a - p + EPS|| - ||a - n + EPS|| + MARGIN, 0) per row of anchors, positives, negatives;
hinge: the sum over the row of max(1 - x * t, 0) with t one value per column."""
MARGIN, EPS = ${MARGIN}, ${EPS}
REDUCE = "mean"
'''

BODY = r'''

class RowLossTiling(TilingData):
    rows: int
    cols: int
    tile: int


class RowLossKernel:
    def __init__(self, x, x2, x3, partial, tiling):
        row0, self.nrows = BlockSpan(tiling.rows)
        self.cols, self.tile = tiling.cols, min(tiling.tile, tiling.cols)
        self.xGm, self.x2Gm, self.x3Gm, self.pGm = GlobalTensor(), GlobalTensor(), GlobalTensor(), GlobalTensor()
        self.pGm.SetGlobalBuffer(partial[GetBlockIdx() * PARTIAL], PARTIAL)
        self.pipe = TPipe()
        self.inQueue, self.in2Queue, self.in3Queue = TQue(TPosition.VECIN), TQue(TPosition.VECIN), TQue(TPosition.VECIN)
        self.outQueue, self.work = TQue(TPosition.VECOUT), TBuf()
        dtype = self.pGm.dtype
        self.padded = AlignedCount(self.tile, dtype)
        nbytes = self.padded * sizeof(dtype)
        self.pipe.InitBuffer(self.outQueue, 1, PARTIAL * sizeof(dtype))
        if self.nrows > 0:
            self.xGm.SetGlobalBuffer(x[row0 * self.cols], self.nrows * self.cols)
            if LOSS == "cross_entropy":
                self.x2Gm.SetGlobalBuffer(x2[row0 * 2], self.nrows * 2)
            elif LOSS == "hinge":
                self.x2Gm.SetGlobalBuffer(x2, self.cols)
            else:
                self.x2Gm.SetGlobalBuffer(x2[row0 * self.cols], self.nrows * self.cols)
                self.x3Gm.SetGlobalBuffer(x3[row0 * self.cols], self.nrows * self.cols)
            self.pipe.InitBuffer(self.inQueue, BUFFER_NUM, nbytes)
            if LOSS != "cross_entropy":
                self.pipe.InitBuffer(self.in2Queue, BUFFER_NUM, nbytes)
            if LOSS == "triplet":
                self.pipe.InitBuffer(self.in3Queue, BUFFER_NUM, nbytes)
            self.pipe.InitBuffer(self.work, 2 * nbytes)
            self.xs, self.x2s, self.x3s = self.Streams()

    def Streams(self):
        """The chunks of x, x2 and x3 in the order the loss reads them (cross entropy: each row twice; hinge:
        the per-column targets again for every row); None for an input read whole or not at all."""
        spans = [(c, min(self.tile, self.cols - c)) for c in range(0, self.cols, self.tile)]
        rows = [r * self.cols for r in range(self.nrows)]
        passes = 2 if LOSS == "cross_entropy" else 1
        xs = ChunkStream(self.inQueue, self.xGm, [(row + c, n) for row in rows for _ in range(passes) for c, n in spans])
        if LOSS == "hinge":
            return xs, ChunkStream(self.in2Queue, self.x2Gm, [(c, n) for _ in rows for c, n in spans]), None
        if LOSS == "triplet":
            order = [(row + c, n) for row in rows for c, n in spans]
            return xs, ChunkStream(self.in2Queue, self.x2Gm, order), ChunkStream(self.in3Queue, self.x3Gm, order)
        return xs, None, None

    def Process(self):
        total = 0.0
        for r in range(self.nrows):
            if LOSS == "cross_entropy":
                total += self.CrossEntropy(r)
            elif LOSS == "triplet":
                total += self.Triplet(r)
            else:
                total += self.Hinge(r)
        out = self.outQueue.AllocTensor(self.pGm.dtype)
        Duplicate(out, 0.0, PARTIAL)
        out.SetValue(0, total)
        self.outQueue.EnQue(out)
        out = self.outQueue.DeQue()
        DataCopy(self.pGm, out, PARTIAL)
        self.outQueue.FreeTensor(out)

    def Sum(self, tile, n):
        """The sum of a chunk on the scalar unit (ReduceSum into the work buffer)."""
        work = self.work.Get(self.pGm.dtype)[self.padded]
        ReduceSum(work, tile, work, n)
        return work.GetValue(0)

    def CrossEntropy(self, r):
        """logsumexp of row r (max pass, then the sum of exp(x - max)) minus the logit of its target."""
        row, work = r * self.cols, self.work.Get(self.pGm.dtype)
        row_max, chunks = -math.inf, CeilDiv(self.cols, self.tile)
        for c in range(chunks):
            n = min(self.tile, self.cols - c * self.tile)
            x = self.xs.Next(2 * r * chunks + c)
            ReduceMax(work, x, work[self.padded], n)
            row_max = max(row_max, work.GetValue(0))
            self.inQueue.FreeTensor(x)
        row_sum = 0.0
        for c in range(chunks):
            n = min(self.tile, self.cols - c * self.tile)
            x = self.xs.Next((2 * r + 1) * chunks + c)
            Adds(x, x, -row_max, n)
            Exp(x, x, n)
            row_sum += self.Sum(x, n)
            self.inQueue.FreeTensor(x)
        target = self.x2Gm.GetValue(2 * r)
        return row_max + ScalarLog(row_sum) - self.xGm.GetValue(row + target)

    def Triplet(self, r):
        """max(d(a, p) - d(a, n) + MARGIN, 0) with d(u, v) = ||u - v + EPS|| for row r."""
        squares, chunks = [0.0, 0.0], CeilDiv(self.cols, self.tile)
        for c in range(chunks):
            n = min(self.tile, self.cols - c * self.tile)
            a = self.xs.Next(r * chunks + c)
            for k, (queue, other) in enumerate(((self.in2Queue, self.x2s), (self.in3Queue, self.x3s))):
                b = other.Next(r * chunks + c)
                Sub(b, a, b, n)
                Adds(b, b, EPS, n)
                Mul(b, b, b, n)
                squares[k] += self.Sum(b, n)
                queue.FreeTensor(b)
            self.inQueue.FreeTensor(a)
        return max(ScalarSqrt(squares[0]) - ScalarSqrt(squares[1]) + MARGIN, 0.0)

    def Hinge(self, r):
        """The sum over row r of max(1 - x * t, 0), t the per-column targets."""
        total, chunks = 0.0, CeilDiv(self.cols, self.tile)
        for c in range(chunks):
            n = min(self.tile, self.cols - c * self.tile)
            x = self.xs.Next(r * chunks + c)
            t = self.x2s.Next(r * chunks + c)
            Mul(x, x, t, n)
            Muls(x, x, -1.0, n)
            Adds(x, x, 1.0, n)
            Maxs(x, x, 0.0, n)
            total += self.Sum(x, n)
            self.in2Queue.FreeTensor(t)
            self.inQueue.FreeTensor(x)
        return total


@kernel
def row_loss_kernel(x, x2, x3, partial, tiling):
    RowLossKernel(x, x2, x3, partial, tiling).Process()


def run_row_loss(x, x2, x3=None):
    """Host side: the mean loss (0-d) of rows of x against x2 (targets, positives, or per-column targets)
    and x3 (negatives)."""
    x = x.contiguous()
    x2 = x2.contiguous().view(torch.int32) if LOSS == "cross_entropy" else x2.contiguous()
    x3 = x if x3 is None else x3.contiguous()
    cols = x.shape[-1]
    rows = x.numel() // cols
    partial = torch.empty(BLOCK_DIM * PARTIAL, dtype=x.dtype)
    y = torch.empty((), dtype=x.dtype)
    launch(row_loss_kernel, BLOCK_DIM, x, x2, x3, partial, RowLossTiling(rows, cols, TILE_LENGTH))
    divisor = x.numel() if LOSS == "hinge" else rows
    launch(combine_kernel, 1, partial, y, FullReduceTiling(x.numel(), TILE_LENGTH, BLOCK_DIM, divisor))
    return y
''' + stream.SOURCE

SOURCE = HEADER + full_reduce.COMBINE + BODY
