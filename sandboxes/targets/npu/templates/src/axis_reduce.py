"""Template text of the axis_reduce family (${PARAM} placeholders are filled by templates.render_kernel)."""

SOURCE = r'''TILE_LENGTH = ${TILE_LENGTH}
"""Elements of the kept inner dimensions per unit; a unit accumulates its tile over the reduced axis."""
BUFFER_NUM = ${BUFFER_NUM}
"""Buffers of the input queue: 2 loads the next slice while the current one is combined."""
BLOCK_DIM = ${BLOCK_DIM}
"""Cores; (outer index, inner tile) units are split over them."""
REDUCE = "${REDUCE}"
"""sum, mean, max, min, argmax or argmin over the axis; rms: x / sqrt(mean(x^2 over the axis) + EPS)."""
DIM, KEEPDIM, EPS = ${DIM}, ${KEEPDIM}, ${EPS}
ARG = REDUCE in ("argmax", "argmin")
WORDS = 2 if ARG else 1
"""Output words per element: arg-reductions write int64 indices as (low, high) int32 pairs."""
LANES = 64
"""Compare and Select work on whole 256-byte repeats: tiles are padded to 64 elements."""


class AxisTiling(TilingData):
    outer: int
    axis: int
    inner: int
    tile: int


class AxisKernel:
    """x seen as (outer, axis, inner): each unit walks the axis, combining contiguous inner slices
    lane by lane (Add, Max, Min, or Compare and Select for the running index)."""

    def __init__(self, x, y, tiling):
        self.t = tiling
        self.tile = min(tiling.tile, tiling.inner)
        self.tiles = CeilDiv(tiling.inner, self.tile)
        self.unit0, self.units = BlockSpan(tiling.outer * self.tiles)
        self.xGm, self.yGm = GlobalTensor(), GlobalTensor()
        self.xGm.SetGlobalBuffer(x)
        self.yGm.SetGlobalBuffer(y)
        self.pipe = TPipe()
        self.inQueue, self.outQueue = TQue(TPosition.VECIN), TQue(TPosition.VECOUT)
        self.acc, self.index, self.mask, self.table = TBuf(), TBuf(), TBuf(), TBuf()
        if self.units > 0:
            self.padded = AlignUp(self.tile, LANES)
            nbytes = self.padded * sizeof(self.xGm.dtype)
            self.pipe.InitBuffer(self.inQueue, BUFFER_NUM, nbytes)
            self.pipe.InitBuffer(self.outQueue, BUFFER_NUM, WORDS * nbytes)
            self.pipe.InitBuffer(self.acc, nbytes)
            if ARG:
                self.pipe.InitBuffer(self.index, (2 * self.padded + LANES) * 4)
                self.pipe.InitBuffer(self.mask, AlignUp(2 * self.padded // 8, 32))
                self.pipe.InitBuffer(self.table, 2 * self.padded * 4)

    def Process(self):
        if self.units == 0:
            return
        if ARG:
            self.BuildTable()
        for unit in range(self.unit0, self.unit0 + self.units):
            outer, tile = divmod(unit, self.tiles)
            start = tile * self.tile
            n = min(self.tile, self.t.inner - start)
            base = outer * self.t.axis * self.t.inner + start
            if REDUCE == "rms":
                self.Normalise(base, n)
            else:
                self.Reduce(base, outer * self.t.inner + start, n)

    def Load(self, offset, n):
        x = self.inQueue.AllocTensor(self.xGm.dtype)
        CopyIn(x, self.xGm[offset], n)
        self.inQueue.EnQue(x)
        return self.inQueue.DeQue()

    def Reduce(self, base, out, n):
        """One unit: the slices of the axis combined into acc (and the index of the best one)."""
        dtype = self.xGm.dtype
        acc = self.acc.Get(dtype)
        index = self.index.Get(float32) if ARG else None
        for r in range(self.t.axis):
            x = self.Load(base + r * self.t.inner, n)
            if r == 0:
                DataCopy(acc, x, self.padded)
                if ARG:
                    Duplicate(index, 0.0, self.padded)
            elif ARG:
                self.Track(acc, index, x, r)
            elif REDUCE in ("sum", "mean"):
                Add(acc, acc, x, n)
            elif REDUCE == "max":
                Max(acc, acc, x, n)
            else:
                Min(acc, acc, x, n)
            self.inQueue.FreeTensor(x)
        y = self.outQueue.AllocTensor(int32 if ARG else dtype)
        if ARG:
            self.Pairs(y, index)
        elif REDUCE == "mean":
            Muls(y, acc, 1.0 / self.t.axis, n)
        else:
            DataCopy(y, acc, AlignedCount(n, dtype))
        self.outQueue.EnQue(y)
        y = self.outQueue.DeQue()
        CopyOut(self.yGm[out * WORDS], y, n * WORDS)
        self.outQueue.FreeTensor(y)

    def Track(self, acc, index, x, r):
        """Lanes where x beats acc take index r (a tie keeps the earlier index, as torch does)."""
        mask = self.mask.Get(uint8)
        Compare(mask, x, acc, CMPMODE.LE if REDUCE == "argmax" else CMPMODE.GE, self.padded)
        Select(index, mask, index, float(r), SELMODE.VSEL_TENSOR_SCALAR_MODE, self.padded)
        if REDUCE == "argmax":
            Max(acc, acc, x, self.padded)
        else:
            Min(acc, acc, x, self.padded)

    def BuildTable(self):
        """Byte offsets that interleave the int32 indices with zero words, (i, 0) pairs being int64 i:
        entry k is 2k (the index k / 2) for even k, else the offset of the zero words after the indices."""
        words = 2 * self.padded
        table, mask = self.table.Get(int32), self.mask.Get(uint8)
        half = self.outQueue.AllocTensor(float32)
        parity = half.ReinterpretCast(int32)
        CreateVecIndex(table, 0, words)
        Cast(half, table, RoundMode.CAST_NONE, words)
        Muls(half, half, 0.5, words)
        Cast(parity, half, RoundMode.CAST_FLOOR, words)
        Muls(parity, parity, 2, words)
        Sub(parity, table, parity, words)
        CompareScalar(mask, parity, 0, CMPMODE.LE, words)
        Muls(table, table, 2, words)
        Select(table, mask, table, 4 * self.padded, SELMODE.VSEL_TENSOR_SCALAR_MODE, words)
        self.outQueue.FreeTensor(half)
        Duplicate(self.index.Get(int32)[words], 0, LANES)

    def Pairs(self, y, index):
        """The running indices as int64 (low word, zero high word) pairs in y."""
        ints = self.index.Get(int32)[self.padded]
        Cast(ints, index, RoundMode.CAST_RINT, self.padded)
        Gather(y, ints, self.table.Get(int32), 0, 2 * self.padded)

    def Normalise(self, base, n):
        """rms: pass 1 sums the squares over the axis, pass 2 divides every slice by the root mean."""
        dtype = self.xGm.dtype
        acc = self.acc.Get(dtype)
        for r in range(self.t.axis):
            x = self.Load(base + r * self.t.inner, n)
            if r == 0:
                Mul(acc, x, x, n)
            else:
                Mul(x, x, x, n)
                Add(acc, acc, x, n)
            self.inQueue.FreeTensor(x)
        Muls(acc, acc, 1.0 / self.t.axis, n)
        Adds(acc, acc, EPS, n)
        Sqrt(acc, acc, n)
        for r in range(self.t.axis):
            x = self.Load(base + r * self.t.inner, n)
            y = self.outQueue.AllocTensor(dtype)
            Div(y, x, acc, n)
            self.inQueue.FreeTensor(x)
            self.outQueue.EnQue(y)
            y = self.outQueue.DeQue()
            CopyOut(self.yGm[base + r * self.t.inner], y, n)
            self.outQueue.FreeTensor(y)


@kernel
def axis_kernel(x, y, tiling):
    AxisKernel(x, y, tiling).Process()


def run_axis_reduce(x):
    """Host side: reduce dimension DIM of x (rms: normalise along it)."""
    x = x.contiguous()
    dim = DIM % x.dim()
    inner = 1
    for size in x.shape[dim + 1:]:
        inner *= size
    axis = x.shape[dim]
    if REDUCE == "rms":
        y = torch.empty_like(x)
    else:
        kept = [1] if KEEPDIM else []
        y = torch.empty(list(x.shape[:dim]) + kept + list(x.shape[dim + 1:]), dtype=torch.int64 if ARG else x.dtype)
    words = y.view(torch.int32) if ARG else y
    launch(axis_kernel, BLOCK_DIM, x, words, AxisTiling(x.numel() // (axis * inner), axis, inner, TILE_LENGTH))
    return y
'''
