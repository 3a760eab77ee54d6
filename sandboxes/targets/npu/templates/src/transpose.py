"""Template text of the transpose family (${PARAM} placeholders are filled by templates.render_kernel)."""

SOURCE = r'''TILE_ROWS = ${TILE_ROWS}
"""Rows of x per tile (a multiple of 8): they become the columns of a tile of the output."""
TILE_COLS = ${TILE_COLS}
"""Columns of x per tile (a multiple of 8)."""
BUFFER_NUM = ${BUFFER_NUM}
"""Buffers per queue: 2 overlaps the strided loads, the Gather and the strided stores."""
BLOCK_DIM = ${BLOCK_DIM}
"""Cores; tiles are split over them."""


class TransposeTiling(TilingData):
    batch: int
    m: int
    n: int


class TransposeKernel:
    """Strided DataCopyPad of a TILE_ROWS x TILE_COLS tile into UB, one Gather through a fixed
    offset table to transpose it, a strided store into the output rows."""

    def __init__(self, x, y, tiling):
        self.t = tiling
        self.tiles_m, self.tiles_n = CeilDiv(tiling.m, TILE_ROWS), CeilDiv(tiling.n, TILE_COLS)
        self.tile0, self.ntiles = BlockSpan(tiling.batch * self.tiles_m * self.tiles_n)
        self.xGm, self.yGm = GlobalTensor(), GlobalTensor()
        self.xGm.SetGlobalBuffer(x)
        self.yGm.SetGlobalBuffer(y)
        self.pipe = TPipe()
        self.inQueue, self.outQueue, self.table = TQue(TPosition.VECIN), TQue(TPosition.VECOUT), TBuf()
        if self.ntiles > 0:
            nbytes = TILE_ROWS * TILE_COLS * sizeof(self.xGm.dtype)
            self.pipe.InitBuffer(self.inQueue, BUFFER_NUM, nbytes)
            self.pipe.InitBuffer(self.outQueue, BUFFER_NUM, nbytes)
            self.pipe.InitBuffer(self.table, TILE_ROWS * TILE_COLS * 4)

    def Process(self):
        if self.ntiles == 0:
            return
        self.BuildTable()
        for tile in range(self.tile0, self.tile0 + self.ntiles):
            self.CopyIn(tile)
            self.Compute(tile)
            self.CopyOut(tile)

    def Geometry(self, tile):
        """(offset of the tile in x, offset of its transpose in y, rows, cols) of one tile."""
        t = self.t
        b, rest = divmod(tile, self.tiles_m * self.tiles_n)
        i0, j0 = (rest // self.tiles_n) * TILE_ROWS, (rest % self.tiles_n) * TILE_COLS
        base = b * t.m * t.n
        return base + i0 * t.n + j0, base + j0 * t.m + i0, min(TILE_ROWS, t.m - i0), min(TILE_COLS, t.n - j0)

    def BuildTable(self):
        """Output element j * TILE_ROWS + i reads input element i * TILE_COLS + j (byte offsets)."""
        size = sizeof(self.xGm.dtype)
        table = self.table.Get(int32)
        CreateVecIndex(table, 0, TILE_ROWS)
        Muls(table, table, TILE_COLS * size, TILE_ROWS)
        for j in range(1, TILE_COLS):
            Adds(table[j * TILE_ROWS], table, j * size, TILE_ROWS)

    def CopyIn(self, tile):
        """Rows of the tile at a pitch of TILE_COLS (DataCopyPad rows start on 32-byte blocks)."""
        src, _, rows, cols = self.Geometry(tile)
        size = sizeof(self.xGm.dtype)
        x = self.inQueue.AllocTensor(self.xGm.dtype)
        gap = (TILE_COLS - AlignUp(cols, 32 // size)) * size // 32
        DataCopyPad(x, self.xGm[src], DataCopyExtParams(rows, cols * size, (self.t.n - cols) * size, gap))
        self.inQueue.EnQue(x)

    def Compute(self, tile):
        _, _, _, cols = self.Geometry(tile)
        x = self.inQueue.DeQue()
        y = self.outQueue.AllocTensor(self.xGm.dtype)
        Gather(y, x, self.table.Get(int32), 0, cols * TILE_ROWS)
        self.outQueue.EnQue(y)
        self.inQueue.FreeTensor(x)

    def CopyOut(self, tile):
        _, dst, rows, cols = self.Geometry(tile)
        size = sizeof(self.xGm.dtype)
        y = self.outQueue.DeQue()
        gap = (TILE_ROWS - AlignUp(rows, 32 // size)) * size // 32
        DataCopyPad(self.yGm[dst], y, DataCopyExtParams(cols, rows * size, gap, (self.t.m - rows) * size))
        self.outQueue.FreeTensor(y)


@kernel
def transpose_kernel(x, y, tiling):
    TransposeKernel(x, y, tiling).Process()


def run_transpose(x):
    """Host side: the materialised transpose of the last two dimensions of x."""
    x = x.contiguous()
    m, n = x.shape[-2], x.shape[-1]
    y = torch.empty(*x.shape[:-2], n, m, dtype=x.dtype)
    launch(transpose_kernel, BLOCK_DIM, x, y, TransposeTiling(x.numel() // (m * n), m, n))
    return y
'''
