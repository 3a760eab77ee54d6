"""Template text of the scan family (${PARAM} placeholders are filled by templates.render_kernel)."""

from sandboxes.targets.npu.templates.src import stream

SOURCE = r'''TILE_LENGTH = ${TILE_LENGTH}
"""Elements of a row per CumSum call; the running total carries from chunk to chunk."""
BUFFER_NUM = ${BUFFER_NUM}
"""Buffers per queue: 2 overlaps loading, scanning and storing."""
PREFETCH = ${PREFETCH}
"""1: each chunk's copy-in (of x, and of the mask) is issued while the chunk before it is scanned (ChunkStream)."""
BLOCK_DIM = ${BLOCK_DIM}
"""Cores; rows are split over them."""
SCAN = "${SCAN}"
"""sum: prefix sums; prod: prefix products, in the log domain (exp of the prefix sums of log|x|, the sign
from the count of negative elements so far; a zero makes the rest zero); the relative error grows with
the row length like that of the prefix sums of the logs."""
REVERSE, EXCLUSIVE, MASKED = ${REVERSE}, ${EXCLUSIVE}, ${MASKED}
"""REVERSE: suffix sums (chunks from the row's end, each reversed by a Gather before and after its scan);
EXCLUSIVE: every element's own term left out (y[0] = 0); MASKED: x * mask (a bool tensor) is scanned."""
LANES = 64
"""Compare and Select work on whole 256-byte repeats."""


class ScanTiling(TilingData):
    rows: int
    cols: int
    tile: int


class ScanKernel:
    def __init__(self, x, mask, y, tiling):
        row0, self.nrows = BlockSpan(tiling.rows)
        self.cols, self.tile = tiling.cols, min(tiling.tile, tiling.cols)
        self.xGm, self.mGm, self.yGm = GlobalTensor(), GlobalTensor(), GlobalTensor()
        self.pipe = TPipe()
        self.inQueue, self.maskQueue, self.outQueue = TQue(TPosition.VECIN), TQue(TPosition.VECIN), TQue(TPosition.VECOUT)
        self.work, self.table, self.flags = TBuf(), TBuf(), TBuf()
        self.tables = {}
        if self.nrows > 0:
            self.xGm.SetGlobalBuffer(x[row0 * self.cols], self.nrows * self.cols)
            self.mGm.SetGlobalBuffer(mask[row0 * self.cols], self.nrows * self.cols)
            self.yGm.SetGlobalBuffer(y[row0 * self.cols], self.nrows * self.cols)
            self.padded = AlignUp(self.tile, LANES)
            nbytes = self.padded * sizeof(self.xGm.dtype)
            self.pipe.InitBuffer(self.inQueue, BUFFER_NUM, nbytes)
            self.pipe.InitBuffer(self.outQueue, BUFFER_NUM, nbytes)
            if MASKED:
                self.pipe.InitBuffer(self.maskQueue, BUFFER_NUM, AlignUp(self.padded, 32))
            self.pipe.InitBuffer(self.work, (3 if SCAN == "prod" else 1) * nbytes)
            if REVERSE:
                self.pipe.InitBuffer(self.table, 2 * self.padded * 4)
                self.tables = self.ReverseTables()
            if SCAN == "prod":
                self.pipe.InitBuffer(self.flags, AlignUp(self.padded // 8, 32))
            starts = list(range(0, self.cols, self.tile))
            order = [(r * self.cols + c, min(self.tile, self.cols - c)) for r in range(self.nrows)
                     for c in (reversed(starts) if REVERSE else starts)]
            self.xs = ChunkStream(self.inQueue, self.xGm, order)
            if MASKED:
                self.ms = ChunkStream(self.maskQueue, self.mGm, order)

    def Process(self):
        for r in range(self.nrows):
            carry = (0.0, 0.0)
            starts = list(range(0, self.cols, self.tile))
            for i, start in enumerate(reversed(starts) if REVERSE else starts):
                n = min(self.tile, self.cols - start)
                carry = self.Compute(r * len(starts) + i, n, carry)
                self.CopyOut(self.yGm[r * self.cols + start], n)

    def Compute(self, k, n, carry):
        """The scan of chunk k of the stream continuing ``carry`` (the total so far, and for prod the count of negative
        elements so far); returns the new carry."""
        x = self.xs.Next(k)
        y = self.outQueue.AllocTensor(self.xGm.dtype)
        work = self.work.Get(self.xGm.dtype)
        if MASKED:
            m = self.ms.Next(k)
            Cast(work, m, RoundMode.CAST_NONE, n)
            Mul(x, x, work, n)
            self.maskQueue.FreeTensor(m)
        if REVERSE:
            self.Reverse(work, x, n)
            DataCopy(x, work, AlignedCount(n, x.dtype))
        if SCAN == "prod":
            carry = self.LogProducts(y, x, n, carry)
        else:
            CumSum(y, x, n)
            if carry[0] != 0.0:
                Adds(y, y, carry[0], n)
            carry = (y.GetValue(n - 1), 0.0)
            if EXCLUSIVE:
                Sub(y, y, x, n)
        if REVERSE:
            self.Reverse(work, y, n)
            DataCopy(y, work, AlignedCount(n, y.dtype))
        self.outQueue.EnQue(y)
        self.inQueue.FreeTensor(x)
        return carry

    def LogProducts(self, y, x, n, carry):
        """y = prefix products of x: exp(prefix sums of log|x|) with the sign of the count of negatives."""
        work = self.work.Get(self.xGm.dtype)
        logs, negative = work[self.padded], work[2 * self.padded]
        flags = self.flags.Get(uint8)
        CompareScalar(flags, x, 0.0, CMPMODE.LT, self.padded)
        Duplicate(negative, 1.0, self.padded)
        Select(negative, flags, negative, 0.0, SELMODE.VSEL_TENSOR_SCALAR_MODE, self.padded)
        Abs(logs, x, n)
        Ln(logs, logs, n)
        CumSum(y, logs, n)
        Adds(y, y, carry[0], n)
        total = y.GetValue(n - 1)
        Exp(y, y, n)
        CumSum(logs, negative, n)
        Adds(logs, logs, carry[1], n)
        count = logs.GetValue(n - 1)
        Muls(negative, logs, 0.5, n)
        Cast(negative.ReinterpretCast(int32), negative, RoundMode.CAST_FLOOR, n)
        Cast(negative, negative.ReinterpretCast(int32), RoundMode.CAST_NONE, n)
        Muls(negative, negative, 2.0, n)
        Sub(logs, logs, negative, n)
        Muls(logs, logs, -2.0, n)
        Adds(logs, logs, 1.0, n)
        Mul(y, y, logs, n)
        return total, count

    def ReverseTables(self):
        """Gather offsets that reverse a chunk, for the two chunk lengths of a row (whole and last)."""
        tables = {}
        for k, n in enumerate(sorted({self.tile, self.cols - (CeilDiv(self.cols, self.tile) - 1) * self.tile})):
            table = self.table.Get(int32)[k * self.padded]
            CreateVecIndex(table, 0, n)
            Muls(table, table, -4, n)
            Adds(table, table, 4 * (n - 1), n)
            tables[n] = table
        return tables

    def Reverse(self, dst, src, n):
        """dst[i] = src[n - 1 - i]."""
        Gather(dst, src, self.tables[n], 0, n)

    def CopyOut(self, dst, n):
        y = self.outQueue.DeQue()
        CopyOut(dst, y, n)
        self.outQueue.FreeTensor(y)


@kernel
def scan_kernel(x, mask, y, tiling):
    ScanKernel(x, mask, y, tiling).Process()


def run_scan(x, mask=None):
    """Host side: the scan over the last dimension of x (of x * mask when MASKED)."""
    x = x.contiguous()
    mask = x if mask is None else mask.contiguous().view(torch.uint8)
    cols = x.shape[-1]
    y = torch.empty_like(x)
    launch(scan_kernel, BLOCK_DIM, x, mask, y, ScanTiling(x.numel() // cols, cols, TILE_LENGTH))
    return y
''' + stream.SOURCE
