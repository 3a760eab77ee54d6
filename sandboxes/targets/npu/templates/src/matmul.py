"""Template text of the matmul family (${PARAM} placeholders are filled by templates.render_kernel).

``HEADER`` holds the placeholders, ``BODY`` the kernels; conv2d reuses the body. The family's source
adds the triangle kernel for a product followed by torch.triu / torch.tril."""

from sandboxes.targets.npu.templates.src import triangle

HEADER = r'''BASE_M = ${BASE_M}
"""Rows of the output tile one core computes at a time."""
BASE_N = ${BASE_N}
"""Columns of the output tile."""
BASE_K = ${BASE_K}
"""Depth of one Mmad step (the tile length along K)."""
BUFFER_NUM = ${BUFFER_NUM}
"""Buffers of the A1/B1/A2/B2/CO1 queues: 2 overlaps the next loads with the current Mmad."""
BLOCK_DIM = ${BLOCK_DIM}
"""Cube cores; output tiles are dealt round-robin to them."""
'''

BODY = r'''
CAST_TILE = 4096
"""Elements per tile of the cast kernel that brings B to A's type (a mixed-precision product)."""


class MatmulTiling(TilingData):
    batch: int
    m: int
    n: int
    k: int
    transpose_b: bool
    transpose_a: bool
    """A is given as K x M (a @ b computes A.T @ B)."""
    batch_a: bool
    """False when every batch shares one A (and likewise batch_b for B)."""
    batch_b: bool
    skip: int
    """1: tiles wholly below the diagonal are skipped (a triu follows), 2: wholly above (tril); 0: none."""


class MatmulKernel:
    def __init__(self, a, b, c, tiling):
        self.t = tiling
        self.aGm, self.bGm, self.cGm = GlobalTensor(), GlobalTensor(), GlobalTensor()
        self.aGm.SetGlobalBuffer(a)
        self.bGm.SetGlobalBuffer(b)
        self.cGm.SetGlobalBuffer(c)
        self.dtype, self.acc = self.aGm.dtype, self.cGm.dtype
        self.tiles_m, self.tiles_n = CeilDiv(tiling.m, BASE_M), CeilDiv(tiling.n, BASE_N)
        self.pipe = TPipe()
        self.a1, self.b1 = TQue(TPosition.A1), TQue(TPosition.B1)
        self.a2, self.b2, self.co1 = TQue(TPosition.A2), TQue(TPosition.B2), TQue(TPosition.CO1)
        size = sizeof(self.dtype)
        self.pipe.InitBuffer(self.a1, BUFFER_NUM, AlignUp(BASE_M, 32) * AlignUp(BASE_K, 32) * size)
        self.pipe.InitBuffer(self.b1, BUFFER_NUM, AlignUp(BASE_K, 32) * AlignUp(BASE_N, 32) * size)
        self.pipe.InitBuffer(self.a2, BUFFER_NUM, AlignUp(BASE_M, 16) * AlignUp(BASE_K, 32) * size)
        self.pipe.InitBuffer(self.b2, BUFFER_NUM, AlignUp(BASE_K, 32) * AlignUp(BASE_N, 16) * size)
        self.pipe.InitBuffer(self.co1, BUFFER_NUM, AlignUp(BASE_M, 16) * AlignUp(BASE_N, 16) * 4)

    def Process(self):
        for tile in range(GetBlockIdx(), self.t.batch * self.tiles_m * self.tiles_n, GetBlockNum()):
            self.ComputeTile(tile)

    def ComputeTile(self, tile):
        t = self.t
        bi, rest = divmod(tile, self.tiles_m * self.tiles_n)
        m0, n0 = (rest // self.tiles_n) * BASE_M, (rest % self.tiles_n) * BASE_N
        mm, nn = min(BASE_M, t.m - m0), min(BASE_N, t.n - n0)
        if (t.skip == 1 and n0 + nn <= m0) or (t.skip == 2 and n0 >= m0 + mm):
            return  # every element of this tile is zeroed by the triangle mask after the product
        a_base = self.aGm[bi * t.m * t.k if t.batch_a else 0]
        b_base = self.bGm[bi * t.k * t.n if t.batch_b else 0]
        c = self.co1.AllocTensor(self.acc)
        for k0 in range(0, t.k, BASE_K):
            kk = min(BASE_K, t.k - k0)
            if t.transpose_a:
                self.LoadA(a_base[k0 * t.m + m0], kk, mm, t.m)
            else:
                self.LoadA(a_base[m0 * t.k + k0], mm, kk, t.k)
            if t.transpose_b:
                self.LoadB(b_base[n0 * t.k + k0], nn, kk, t.k)
            else:
                self.LoadB(b_base[k0 * t.n + n0], kk, nn, t.n)
            a2, b2 = self.a2.DeQue(), self.b2.DeQue()
            Mmad(c, a2, b2, MmadParams(mm, nn, kk, k0 == 0))
            self.a2.FreeTensor(a2)
            self.b2.FreeTensor(b2)
        self.co1.EnQue(c)
        c = self.co1.DeQue()
        Fixpipe(self.cGm[bi * t.m * t.n + m0 * t.n + n0], c, FixpipeParams(mm, nn, t.n))
        self.co1.FreeTensor(c)

    def LoadA(self, src, rows, cols, pitch):
        """A tile from GM: M x K rows, or K x M rows when A is given transposed."""
        a1 = self.a1.AllocTensor(self.dtype)
        DataCopy(a1, src, Nd2NzParams(1, rows, cols, 0, pitch, AlignUp(rows, 16), 1, 0))
        self.a1.EnQue(a1)
        a1, a2 = self.a1.DeQue(), self.a2.AllocTensor(self.dtype)
        LoadData(a2, a1, LoadData2DParams(rows, cols, self.t.transpose_a))
        self.a2.EnQue(a2)
        self.a1.FreeTensor(a1)

    def LoadB(self, src, rows, cols, pitch):
        """B tile from GM: K x N rows, or N x K rows when B is given transposed."""
        b1 = self.b1.AllocTensor(self.dtype)
        DataCopy(b1, src, Nd2NzParams(1, rows, cols, 0, pitch, AlignUp(rows, 16), 1, 0))
        self.b1.EnQue(b1)
        b1, b2 = self.b1.DeQue(), self.b2.AllocTensor(self.dtype)
        LoadData(b2, b1, LoadData2DParams(rows, cols, self.t.transpose_b))
        self.b2.EnQue(b2)
        self.b1.FreeTensor(b1)


@kernel(core_type="AIC_ONLY")
def matmul_kernel(a, b, c, tiling):
    MatmulKernel(a, b, c, tiling).Process()


class CastTiling(TilingData):
    total: int


@kernel
def cast_kernel(x, y, tiling):
    """y = x converted to y's type (round to nearest), tile by tile."""
    start, count = BlockSpan(tiling.total)
    if count == 0:
        return
    xGm, yGm = GlobalTensor(), GlobalTensor()
    xGm.SetGlobalBuffer(x[start], count)
    yGm.SetGlobalBuffer(y[start], count)
    pipe = TPipe()
    inQueue, outQueue = TQue(TPosition.VECIN), TQue(TPosition.VECOUT)
    pipe.InitBuffer(inQueue, 2, CAST_TILE * sizeof(xGm.dtype))
    pipe.InitBuffer(outQueue, 2, CAST_TILE * sizeof(yGm.dtype))
    for offset in range(0, count, CAST_TILE):
        n = min(CAST_TILE, count - offset)
        x = inQueue.AllocTensor(xGm.dtype)
        CopyIn(x, xGm[offset], n)
        inQueue.EnQue(x)
        x = inQueue.DeQue()
        y = outQueue.AllocTensor(yGm.dtype)
        Cast(y, x, RoundMode.CAST_NONE, n)
        outQueue.EnQue(y)
        inQueue.FreeTensor(x)
        y = outQueue.DeQue()
        CopyOut(yGm[offset], y, n)
        outQueue.FreeTensor(y)


def run_cast(x, dtype):
    """Host side: x converted to ``dtype`` on the vector cores."""
    x = x.contiguous()
    y = torch.empty(x.shape, dtype=dtype)
    launch(cast_kernel, BLOCK_DIM, x, y, CastTiling(x.numel()))
    return y


def run_matmul(a, b, transpose_b=False, transpose_a=False, triangle=""):
    """Host side: a @ b (or with a and/or b given transposed: a.T @ b, a @ b.T), 2-D, batched 3-D (a 2-D
    operand is shared by every batch), A of any rank times a 2-D B (A's leading dimensions become rows),
    or a matrix-vector product; B is cast to A's type first when they differ. ``triangle`` "upper" or
    "lower": the 2-D product's triu or tril (the tiles it zeroes are not computed)."""
    vector = b.dim() == 1
    b = run_cast(b, a.dtype) if b.dtype != a.dtype else b
    b = b.reshape(-1, 1) if vector else b
    rows = a.dim() > 2 and b.dim() == 2 and not transpose_a
    a3 = (a.reshape(1, -1, a.shape[-1]) if rows else a if a.dim() == 3 else a.reshape(1, *a.shape)).contiguous()
    b3 = (b if b.dim() == 3 else b.reshape(1, *b.shape)).contiguous()
    batch, m, k = max(a3.shape[0], b3.shape[0]), a3.shape[1], a3.shape[2]
    if transpose_a:
        m, k = k, m
    n = b3.shape[1] if transpose_b else b3.shape[2]
    c = torch.empty(batch, m, n, dtype=torch.float32)
    skip = {"upper": 1, "lower": 2}.get(triangle, 0) if batch == 1 else 0
    launch(matmul_kernel, BLOCK_DIM, a3, b3, c, MatmulTiling(batch, m, n, k, transpose_b, transpose_a,
                                                                   a3.shape[0] > 1, b3.shape[0] > 1, skip))
    if skip:
        return run_triangle(c.reshape(m, n), triangle == "upper", c.reshape(m, n))
    if vector:
        return c.reshape(m)
    if rows:
        return c.reshape(*a.shape[:-1], n)
    return c if a.dim() == 3 or b.dim() == 3 else c.reshape(m, n)
'''

SOURCE = HEADER + BODY + r'''
TILE_LENGTH = 4096
"""Row elements per chunk of the triangle mask."""
''' + triangle.BODY
