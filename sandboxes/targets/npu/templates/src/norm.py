"""Template text of the norm family (${PARAM} placeholders are filled by templates.render_kernel)."""

from sandboxes.targets.npu.templates.src import stream

SOURCE = r'''TILE_LENGTH = ${TILE_LENGTH}
"""Elements of a row per chunk (weight and bias chunks are reloaded for every row)."""
BUFFER_NUM = ${BUFFER_NUM}
"""Buffers per queue: 2 overlaps loading, normalising and storing."""
PREFETCH = ${PREFETCH}
"""1: each chunk's copy-in (of x, and of r) is issued while the chunk before it is used (ChunkStream); 0: when needed."""
BLOCK_DIM = ${BLOCK_DIM}
"""Cores; rows are split over them."""
MODE = "${MODE}"
"""layer: (x - mean) / std; rms: x / sqrt(mean(x^2)); l2: x / sqrt(sum(x^2)); l1: x / mean(|x|)."""
NORM_DIMS = ${NORM_DIMS}
"""Trailing dimensions normalised together (LayerNorm's normalized_shape; 2 for instance norm)."""
EPS = ${EPS}
PROLOGUE = ${PROLOGUE}
"""Whether an element-wise op with a second input (r) runs on every chunk before it is normalised."""
STAGES = ${STAGES}
"""Whether fused element-wise stages run on the normalised chunk before it is stored."""


def prologue(x, r, n):
${PROLOGUE_CODE}


def compute(y, x, x2, t1, t2, n):
${COMPUTE}


class NormTiling(TilingData):
    rows: int
    cols: int
    tile: int
    has_weight: bool
    has_bias: bool


class NormKernel:
    def __init__(self, x, w, b, r, y, tiling):
        row0, self.nrows = BlockSpan(tiling.rows)
        self.cols, self.tile = tiling.cols, min(tiling.tile, tiling.cols)
        self.has_weight, self.has_bias = tiling.has_weight, tiling.has_bias
        self.xGm, self.wGm, self.bGm, self.yGm = GlobalTensor(), GlobalTensor(), GlobalTensor(), GlobalTensor()
        self.rGm = GlobalTensor()
        self.pipe = TPipe()
        self.inQueue, self.in2Queue, self.outQueue = TQue(TPosition.VECIN), TQue(TPosition.VECIN), TQue(TPosition.VECOUT)
        self.work, self.params = TBuf(), TBuf()
        self.chunks = [(c, min(self.tile, self.cols - c)) for c in range(0, self.cols, self.tile)]
        if self.nrows > 0:
            self.xGm.SetGlobalBuffer(x[row0 * self.cols], self.nrows * self.cols)
            self.yGm.SetGlobalBuffer(y[row0 * self.cols], self.nrows * self.cols)
            self.rGm.SetGlobalBuffer(r[row0 * self.cols], self.nrows * self.cols)
            self.wGm.SetGlobalBuffer(w, self.cols)
            self.bGm.SetGlobalBuffer(b, self.cols)
            self.padded = AlignedCount(self.tile, self.xGm.dtype)
            nbytes = self.padded * sizeof(self.xGm.dtype)
            self.pipe.InitBuffer(self.inQueue, BUFFER_NUM, nbytes)
            if PROLOGUE:
                self.pipe.InitBuffer(self.in2Queue, BUFFER_NUM, nbytes)
            self.pipe.InitBuffer(self.outQueue, BUFFER_NUM, nbytes)
            self.pipe.InitBuffer(self.work, 2 * nbytes)
            self.pipe.InitBuffer(self.params, 2 * nbytes)
            order = [(r * self.cols + c, n) for r in range(self.nrows) for _ in range(2) for c, n in self.chunks]
            self.xs = ChunkStream(self.inQueue, self.xGm, order)
            if PROLOGUE:
                self.rs = ChunkStream(self.in2Queue, self.rGm, order)

    def Process(self):
        for r in range(self.nrows):
            total, squares = self.Sums(r)
            if MODE == "rms":
                shift, scale = 0.0, 1.0 / ScalarSqrt(squares / self.cols + EPS)
            elif MODE == "l2":
                shift, scale = 0.0, 1.0 / ScalarSqrt(squares)
            elif MODE == "l1":
                shift, scale = 0.0, self.cols / squares
            else:
                mean = total / self.cols
                shift, scale = -mean, 1.0 / ScalarSqrt(max(squares / self.cols - mean * mean, 0.0) + EPS)
            self.Normalise(r, self.yGm[r * self.cols], shift, scale)

    def Load(self, k, n):
        """Chunk k of x (each row's chunks twice: sums, then normalisation), with the prologue applied to it
        and the chunk of r."""
        x = self.xs.Next(k)
        if PROLOGUE:
            r = self.rs.Next(k)
            prologue(x, r, n)
            self.in2Queue.FreeTensor(r)
        return x

    def Sums(self, r):
        """Pass 1: sum and sum of squares (for l1: of absolute values) of one row."""
        scratch = self.work.Get(self.xGm.dtype)
        sq, work = scratch, scratch[self.padded]
        total, squares = 0.0, 0.0
        for c, (_, n) in enumerate(self.chunks):
            x = self.Load(2 * r * len(self.chunks) + c, n)
            if MODE == "l1":
                Abs(sq, x, n)
            else:
                Mul(sq, x, x, n)
            ReduceSum(work, x, work, n)
            total += work.GetValue(0)
            self.inQueue.FreeTensor(x)
            ReduceSum(work, sq, work, n)
            squares += work.GetValue(0)
        return total, squares

    def Normalise(self, r, out, shift, scale):
        """Pass 2: y = (x + shift) * scale (* weight + bias), then the fused stages."""
        params, scratch = self.params.Get(self.xGm.dtype), self.work.Get(self.xGm.dtype)
        w, b = params, params[self.padded]
        for c, (start, n) in enumerate(self.chunks):
            x = self.Load((2 * r + 1) * len(self.chunks) + c, n)
            if self.has_weight:
                CopyIn(w, self.wGm[start], n)
            if self.has_bias:
                CopyIn(b, self.bGm[start], n)
            SetFlag(HardEvent.MTE2_V, 0)
            WaitFlag(HardEvent.MTE2_V, 0)
            y = self.outQueue.AllocTensor(self.xGm.dtype)
            z = x if STAGES else y
            Adds(z, x, shift, n)
            Muls(z, z, scale, n)
            if self.has_weight:
                Mul(z, z, w, n)
            if self.has_bias:
                Add(z, z, b, n)
            if STAGES:
                compute(y, x, x, scratch, scratch[self.padded], n)
            self.outQueue.EnQue(y)
            self.inQueue.FreeTensor(x)
            SetFlag(HardEvent.V_MTE2, 0)
            WaitFlag(HardEvent.V_MTE2, 0)
            y = self.outQueue.DeQue()
            CopyOut(out[start], y, n)
            self.outQueue.FreeTensor(y)


@kernel
def norm_kernel(x, w, b, r, y, tiling):
    NormKernel(x, w, b, r, y, tiling).Process()


def run_norm(x, weight=None, bias=None, r=None):
    """Host side: normalise the last NORM_DIMS dimensions of x (after the prologue with r), with optional
    weight and bias."""
    x = x.contiguous()
    r = x if r is None else r.contiguous()
    cols = 1
    for size in x.shape[x.dim() - NORM_DIMS:]:
        cols *= size
    y = torch.empty_like(x)
    w = x if weight is None else weight.detach().contiguous()
    b = x if bias is None else bias.detach().contiguous()
    tiling = NormTiling(x.numel() // cols, cols, TILE_LENGTH, weight is not None, bias is not None)
    launch(norm_kernel, BLOCK_DIM, x, w, b, r, y, tiling)
    return y
''' + stream.SOURCE
