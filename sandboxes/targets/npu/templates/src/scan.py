"""Template text of the scan family (${PARAM} placeholders are filled by templates.render_kernel)."""

SOURCE = r'''TILE_LENGTH = ${TILE_LENGTH}
"""Elements of a row per CumSum call; the running total carries from chunk to chunk."""
BUFFER_NUM = ${BUFFER_NUM}
"""Buffers per queue: 2 overlaps loading, scanning and storing."""
BLOCK_DIM = ${BLOCK_DIM}
"""Cores; rows are split over them."""


class ScanTiling(TilingData):
    rows: int
    cols: int
    tile: int


class ScanKernel:
    def __init__(self, x, y, tiling):
        row0, self.nrows = BlockSpan(tiling.rows)
        self.cols, self.tile = tiling.cols, min(tiling.tile, tiling.cols)
        self.xGm, self.yGm = GlobalTensor(), GlobalTensor()
        self.pipe = TPipe()
        self.inQueue, self.outQueue = TQue(TPosition.VECIN), TQue(TPosition.VECOUT)
        if self.nrows > 0:
            self.xGm.SetGlobalBuffer(x[row0 * self.cols], self.nrows * self.cols)
            self.yGm.SetGlobalBuffer(y[row0 * self.cols], self.nrows * self.cols)
            nbytes = AlignedCount(self.tile, self.xGm.dtype) * sizeof(self.xGm.dtype)
            self.pipe.InitBuffer(self.inQueue, BUFFER_NUM, nbytes)
            self.pipe.InitBuffer(self.outQueue, BUFFER_NUM, nbytes)

    def Process(self):
        for r in range(self.nrows):
            carry = 0.0
            for start in range(0, self.cols, self.tile):
                n = min(self.tile, self.cols - start)
                self.CopyIn(self.xGm[r * self.cols + start], n)
                carry = self.Compute(n, n - 1, carry)
                self.CopyOut(self.yGm[r * self.cols + start], n)

    def CopyIn(self, src, n):
        x = self.inQueue.AllocTensor(self.xGm.dtype)
        CopyIn(x, src, n)
        self.inQueue.EnQue(x)

    def Compute(self, n, last, carry):
        """Prefix sum of one chunk plus the total of the chunks before it; returns the new total."""
        x = self.inQueue.DeQue()
        y = self.outQueue.AllocTensor(self.xGm.dtype)
        CumSum(y, x, n)
        if carry != 0.0:
            Adds(y, y, carry, n)
        carry = y.GetValue(last)
        self.outQueue.EnQue(y)
        self.inQueue.FreeTensor(x)
        return carry

    def CopyOut(self, dst, n):
        y = self.outQueue.DeQue()
        CopyOut(dst, y, n)
        self.outQueue.FreeTensor(y)


@kernel
def scan_kernel(x, y, tiling):
    ScanKernel(x, y, tiling).Process()


def run_scan(x):
    """Host side: inclusive prefix sum over the last dimension of x."""
    x = x.contiguous()
    cols = x.shape[-1]
    y = torch.empty_like(x)
    launch(scan_kernel, BLOCK_DIM, x, y, ScanTiling(x.numel() // cols, cols, TILE_LENGTH))
    return y
'''
