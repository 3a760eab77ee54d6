"""Template text of the triangle family: torch.triu / torch.tril of a matrix (diagonal 0), row by row;
``BODY`` is also part of the matmul family, which masks its product and skips the cube tiles that lie
wholly in the zeroed triangle."""

HEADER = r'''TILE_LENGTH = ${TILE_LENGTH}
"""Elements of a row per chunk."""
BUFFER_NUM = ${BUFFER_NUM}
"""Buffers per queue: 2 overlaps loading, masking and storing."""
BLOCK_DIM = ${BLOCK_DIM}
"""Cores; rows are split over them."""
UPPER = ${UPPER}
"""True: triu (keep columns >= row); False: tril (keep columns <= row)."""
'''

BODY = r'''
MASK_LANES = 64
"""CompareScalar works on whole 256-byte repeats: chunks are padded to 64 elements."""


class TriangleTiling(TilingData):
    rows: int
    cols: int
    tile: int


class TriangleKernel:
    def __init__(self, x, y, tiling, upper):
        row0, self.nrows = BlockSpan(tiling.rows)
        self.t, self.row0, self.upper = tiling, row0, upper
        self.tile = min(tiling.tile, tiling.cols)
        self.padded = AlignUp(self.tile, MASK_LANES)
        self.xGm, self.yGm = GlobalTensor(), GlobalTensor()
        self.pipe = TPipe()
        self.inQueue, self.outQueue = TQue(TPosition.VECIN), TQue(TPosition.VECOUT)
        self.index, self.mask = TBuf(), TBuf()
        if self.nrows > 0:
            self.xGm.SetGlobalBuffer(x[row0 * tiling.cols], self.nrows * tiling.cols)
            self.yGm.SetGlobalBuffer(y[row0 * tiling.cols], self.nrows * tiling.cols)
            nbytes = self.padded * sizeof(self.xGm.dtype)
            self.pipe.InitBuffer(self.inQueue, BUFFER_NUM, nbytes)
            self.pipe.InitBuffer(self.outQueue, BUFFER_NUM, nbytes)
            self.pipe.InitBuffer(self.index, self.padded * 4)
            self.pipe.InitBuffer(self.mask, AlignUp(self.padded // 8, 32))

    def Process(self):
        if self.nrows == 0:
            return
        lanes, mask = self.index.Get(float32), self.mask.Get(uint8)
        CreateVecIndex(lanes, 0.0, self.padded)
        cols = self.t.cols
        for r in range(self.nrows):
            row = self.row0 + r
            for start in range(0, cols, self.tile):
                n = min(self.tile, cols - start)
                x = self.inQueue.AllocTensor(self.xGm.dtype)
                CopyIn(x, self.xGm[r * cols + start], n)
                self.inQueue.EnQue(x)
                x = self.inQueue.DeQue()
                y = self.outQueue.AllocTensor(self.xGm.dtype)
                CompareScalar(mask, lanes, float(row - start), CMPMODE.GE if self.upper else CMPMODE.LE,
                              self.padded)
                Select(y, mask, x, 0.0, SELMODE.VSEL_TENSOR_SCALAR_MODE, self.padded)
                self.outQueue.EnQue(y)
                self.inQueue.FreeTensor(x)
                y = self.outQueue.DeQue()
                CopyOut(self.yGm[r * cols + start], y, n)
                self.outQueue.FreeTensor(y)


@kernel
def triangle_kernel(x, y, tiling, upper):
    """``upper`` (by value): keep the upper triangle (triu), else the lower one (tril)."""
    TriangleKernel(x, y, tiling, upper).Process()


def run_triangle(x, upper=None, out=None):
    """Host side: triu (upper; default: UPPER) or tril of the 2-D x, into ``out`` (default: a new tensor;
    x itself works)."""
    upper = UPPER if upper is None else upper
    x = x.contiguous()
    y = torch.empty_like(x) if out is None else out
    launch(triangle_kernel, BLOCK_DIM, x, y, TriangleTiling(x.shape[0], x.shape[1], TILE_LENGTH), upper)
    return y
'''

SOURCE = HEADER + BODY
