"""Template text of the epilogue family: a bias broadcast over the rows (x + b[col]) followed by fused
element-wise stages, one pass through UB. ``linear`` runs the same kernel after its cube matmul."""

PARAMS = r'''TILE_LENGTH = ${TILE_LENGTH}
"""Columns per chunk; a bias chunk is loaded once and serves every row of the core."""
BUFFER_NUM = ${BUFFER_NUM}
"""Buffers per queue: 2 overlaps loading, the epilogue and storing."""
BLOCK_DIM = ${BLOCK_DIM}
"""Cores; rows are split over them."""
'''

CHAIN = r'''HEAD_OPERAND = ${HEAD_OPERAND}
"""Whether a stage reads the biased input again (kept as x2, since the chain overwrites x)."""
ROW_REDUCE = "${ROW_REDUCE}"
"""sum or mean: each row of the result is reduced to one value; empty: the rows are stored."""


def compute(y, x, x2, t1, t2, n):
${COMPUTE}
'''

BODY = r'''

class EpilogueTiling(TilingData):
    rows: int
    cols: int
    tile: int
    has_bias: bool


class EpilogueKernel:
    def __init__(self, x, b, y, tiling):
        row0, self.nrows = BlockSpan(tiling.rows)
        self.cols, self.tile, self.has_bias = tiling.cols, min(tiling.tile, tiling.cols), tiling.has_bias
        self.xGm, self.bGm, self.yGm = GlobalTensor(), GlobalTensor(), GlobalTensor()
        self.pipe = TPipe()
        self.inQueue, self.outQueue = TQue(TPosition.VECIN), TQue(TPosition.VECOUT)
        self.bias, self.tmp, self.sums = TBuf(), TBuf(), TBuf()
        if self.nrows > 0:
            self.xGm.SetGlobalBuffer(x[row0 * self.cols], self.nrows * self.cols)
            if ROW_REDUCE:
                self.yGm.SetGlobalBuffer(y[row0], self.nrows)
                self.pipe.InitBuffer(self.sums, AlignedCount(self.nrows, self.xGm.dtype) * sizeof(self.xGm.dtype))
            else:
                self.yGm.SetGlobalBuffer(y[row0 * self.cols], self.nrows * self.cols)
            self.bGm.SetGlobalBuffer(b, self.cols)
            self.padded = AlignedCount(self.tile, self.xGm.dtype)
            nbytes = self.padded * sizeof(self.xGm.dtype)
            self.pipe.InitBuffer(self.inQueue, BUFFER_NUM, nbytes)
            self.pipe.InitBuffer(self.outQueue, BUFFER_NUM, nbytes)
            self.pipe.InitBuffer(self.bias, nbytes)
            self.pipe.InitBuffer(self.tmp, 3 * nbytes)

    def Process(self):
        if self.nrows == 0:
            return
        bias = self.bias.Get(self.xGm.dtype)
        sums = [0.0] * self.nrows
        for start in range(0, self.cols, self.tile):
            n = min(self.tile, self.cols - start)
            if self.has_bias:
                CopyIn(bias, self.bGm[start], n)
                SetFlag(HardEvent.MTE2_V, 0)
                WaitFlag(HardEvent.MTE2_V, 0)
            for r in range(self.nrows):
                self.CopyIn(self.xGm[r * self.cols + start], n)
                self.Compute(bias, n)
                if ROW_REDUCE:
                    sums[r] += self.ChunkSum(n)
                else:
                    self.CopyOut(self.yGm[r * self.cols + start], n)
            SetFlag(HardEvent.V_MTE2, 0)
            WaitFlag(HardEvent.V_MTE2, 0)
        if ROW_REDUCE:
            self.StoreSums(sums)

    def ChunkSum(self, n):
        """The sum of one result chunk (ReduceSum, read by the scalar unit)."""
        y = self.outQueue.DeQue()
        work = self.tmp.Get(self.xGm.dtype)
        ReduceSum(work, y, work, n)
        self.outQueue.FreeTensor(y)
        return work.GetValue(0)

    def StoreSums(self, sums):
        out = self.sums.Get(self.xGm.dtype)
        for r in range(self.nrows):
            out.SetValue(r, sums[r] / self.cols if ROW_REDUCE == "mean" else sums[r])
        CopyOut(self.yGm, out, self.nrows)

    def CopyIn(self, src, n):
        x = self.inQueue.AllocTensor(self.xGm.dtype)
        CopyIn(x, src, n)
        self.inQueue.EnQue(x)

    def Compute(self, bias, n):
        x = self.inQueue.DeQue()
        y = self.outQueue.AllocTensor(self.xGm.dtype)
        scratch = self.tmp.Get(self.xGm.dtype)
        head = scratch[2 * self.padded]
        if self.has_bias:
            Add(x, x, bias, n)
        if HEAD_OPERAND:
            DataCopy(head, x, AlignedCount(n, self.xGm.dtype))
        compute(y, x, head, scratch, scratch[self.padded], n)
        self.outQueue.EnQue(y)
        self.inQueue.FreeTensor(x)

    def CopyOut(self, dst, n):
        y = self.outQueue.DeQue()
        CopyOut(dst, y, n)
        self.outQueue.FreeTensor(y)


@kernel
def epilogue_kernel(x, b, y, tiling):
    EpilogueKernel(x, b, y, tiling).Process()


def run_epilogue(x, bias=None):
    """Host side: the stages applied to x + bias (bias broadcast over the last dimension), each row
    reduced when ROW_REDUCE is set."""
    x = x.contiguous()
    cols = x.shape[-1]
    y = torch.empty(x.shape[:-1], dtype=x.dtype) if ROW_REDUCE else torch.empty_like(x)
    b = x if bias is None else bias.detach().contiguous()
    tiling = EpilogueTiling(x.numel() // cols, cols, TILE_LENGTH, bias is not None)
    launch(epilogue_kernel, BLOCK_DIM, x, b, y, tiling)
    return y
'''

SOURCE = PARAMS + CHAIN + BODY
