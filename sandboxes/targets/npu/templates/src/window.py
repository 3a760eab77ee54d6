"""Template text of the window family: pooling, depthwise convolution and img2col over NCHW planes.

``HEADER`` holds the ${PARAM} placeholders, ``BODY`` the kernel; conv2d reuses the body."""

HEADER = r'''TILE_LENGTH = ${TILE_LENGTH}
"""Output elements per band: a band is TILE_LENGTH // OW (padded to 8) output rows of one plane."""
BUFFER_NUM = ${BUFFER_NUM}
"""Buffers of the band and output queues: 2 loads the next band while the current one is computed."""
BLOCK_DIM = ${BLOCK_DIM}
"""Cores; (plane, band) units are split over them."""
WINDOW = "${WINDOW}"
"""avg, max, depthwise (per-channel weights) or img2col (every tap of every channel, for conv2d)."""
KH, KW, STRIDE = ${KH}, ${KW}, ${STRIDE}
PAD_H, PAD_W, DIL_H, DIL_W = ${PAD_H}, ${PAD_W}, ${DIL_H}, ${DIL_W}
"""Zero (or -inf) padding rows and columns, and the spacing of the taps (dilation)."""
'''

BODY = r'''
FILL = -math.inf if WINDOW == "max" else 0.0
"""What padding reads."""


class WindowTiling(TilingData):
    planes: int
    channels: int
    h: int
    w: int
    oh: int
    ow: int
    rows: int
    buffers: int
    """Buffers of the band and output queues: BUFFER_NUM, or 1 when one band row needs the UB for itself."""


class WindowKernel:
    """Each band is loaded with its halo rows into UB over a FILL-initialised buffer, one DataBlock
    (``lead`` elements) in and at a row pitch of W plus one DataBlock, so padding (up to a block) reads
    FILL; Gather (one per KW offset when STRIDE is 1, else one per tap) moves the window taps into
    place, and the vertical taps are aligned sub-tensors."""

    def __init__(self, x, w, y, tiling):
        self.t = tiling
        self.xGm, self.wGm, self.yGm = GlobalTensor(), GlobalTensor(), GlobalTensor()
        self.xGm.SetGlobalBuffer(x)
        self.wGm.SetGlobalBuffer(w)
        self.yGm.SetGlobalBuffer(y)
        self.lead = AlignedCount(1, self.xGm.dtype)
        self.owp = AlignedCount(tiling.ow, self.xGm.dtype)
        self.pitch = AlignedCount(tiling.w, self.xGm.dtype) + self.lead
        self.bands = CeilDiv(tiling.oh, tiling.rows)
        unit0, self.units = BlockSpan(tiling.planes * self.bands)
        self.unit0 = unit0
        self.in_rows = (tiling.rows - 1) * STRIDE + (KH - 1) * DIL_H + 1
        self.gather_rows = self.in_rows if STRIDE == 1 else tiling.rows
        self.pipe = TPipe()
        self.inQueue, self.outQueue = TQue(TPosition.VECIN), TQue(TPosition.VECOUT)
        self.table, self.taps, self.weights = TBuf(), TBuf(), TBuf()
        if self.units > 0:
            size = sizeof(self.xGm.dtype)
            self.band = self.lead + self.in_rows * self.pitch + self.lead * STRIDE
            self.pipe.InitBuffer(self.inQueue, tiling.buffers, self.band * size)
            out = self.gather_rows if WINDOW == "img2col" else tiling.rows
            self.pipe.InitBuffer(self.outQueue, tiling.buffers, out * self.owp * size)
            self.pipe.InitBuffer(self.table, self.gather_rows * self.owp * 4)
            if WINDOW != "img2col":
                self.pipe.InitBuffer(self.taps, self.gather_rows * self.owp * size)
            if WINDOW == "depthwise":
                self.pipe.InitBuffer(self.weights, AlignedCount(tiling.channels * KH * KW, self.xGm.dtype) * size)

    def Process(self):
        if self.units == 0:
            return
        self.BuildTable()
        self.FillBands()
        if WINDOW == "depthwise":
            CopyIn(self.weights.Get(self.xGm.dtype), self.wGm, self.t.channels * KH * KW)
        channel, weights = -1, [None] * (KH * KW)
        for unit in range(self.unit0, self.unit0 + self.units):
            self.LoadBand(unit)
            if WINDOW == "img2col":
                self.Img2col(unit)
                continue
            if WINDOW == "depthwise" and self.Geometry(unit)[0] % self.t.channels != channel:
                channel = self.Geometry(unit)[0] % self.t.channels  # a core's units: one plane's bands, the next's
                weights = self.TapWeights(channel)
            self.Reduce(unit, weights)

    def Geometry(self, unit):
        """(plane, first output row, output rows) of one (plane, band) unit."""
        plane, band = divmod(unit, self.bands)
        oh0 = band * self.t.rows
        return plane, oh0, min(self.t.rows, self.t.oh - oh0)

    def BuildTable(self):
        """Byte offsets of every output position's window origin: (r * STRIDE * pitch + ow * STRIDE) * size."""
        size = sizeof(self.xGm.dtype)
        table = self.table.Get(int32)
        CreateVecIndex(table, 0, self.owp)
        Muls(table, table, STRIDE * size, self.owp)
        for r in range(1, self.gather_rows):
            Adds(table[r * self.owp], table, r * STRIDE * self.pitch * size, self.owp)

    def FillBands(self):
        """Every band buffer starts as FILL; loads write only image columns, so the padding keeps it."""
        bands = [self.inQueue.AllocTensor(self.xGm.dtype) for _ in range(self.t.buffers)]
        for band in bands:
            Duplicate(band, FILL, self.band)
        for band in bands:
            self.inQueue.FreeTensor(band)

    def LoadBand(self, unit):
        """The input rows of one band; rows outside the image (edge bands only) are set to FILL."""
        t = self.t
        plane, oh0, rows = self.Geometry(unit)
        band = self.inQueue.AllocTensor(self.xGm.dtype)
        ih0 = oh0 * STRIDE - PAD_H
        end = ih0 + (rows - 1) * STRIDE + (KH - 1) * DIL_H + 1
        first, last = max(ih0, 0), min(end, t.h)
        if first > ih0:
            Duplicate(band, FILL, self.lead + (first - ih0) * self.pitch)
        if last < end:
            Duplicate(band[self.lead + (last - ih0) * self.pitch], FILL, (end - last) * self.pitch)
        if first > ih0 or last < end:
            SetFlag(HardEvent.V_MTE2, 0)
            WaitFlag(HardEvent.V_MTE2, 0)
        gap = (self.pitch - AlignedCount(t.w, self.xGm.dtype)) * sizeof(self.xGm.dtype) // 32
        params = DataCopyExtParams(last - first, t.w * sizeof(self.xGm.dtype), 0, gap)
        DataCopyPad(band[self.lead + (first - ih0) * self.pitch], self.xGm[(plane * t.h + first) * t.w], params)
        self.inQueue.EnQue(band)

    def Reduce(self, unit, weights):
        """One output band: the taps combined by WINDOW (sum, max or the sum weighted by ``weights``)."""
        plane, oh0, rows = self.Geometry(unit)
        size, n = sizeof(self.xGm.dtype), rows * self.owp
        band = self.inQueue.DeQue()
        acc = self.outQueue.AllocTensor(self.xGm.dtype)
        taps, table = self.taps.Get(self.xGm.dtype), self.table.Get(int32)
        tap_rows = [taps[kh * DIL_H * self.owp] for kh in range(KH)] if STRIDE == 1 else [taps] * KH
        """Where each vertical tap starts in ``taps`` (aligned sub-tensors; one buffer for all KW offsets)."""
        for kw in range(KW):
            if STRIDE == 1:
                span = rows + (KH - 1) * DIL_H
                self.ColumnTaps(taps, band, kw * DIL_W == PAD_W, (self.lead + kw * DIL_W - PAD_W) * size, span,
                                span * self.owp)
            for kh in range(KH):
                if STRIDE != 1:
                    Gather(taps, band, table, (self.lead + kh * DIL_H * self.pitch + kw * DIL_W - PAD_W) * size, n)
                self.Combine(acc, tap_rows[kh], n, kh == 0 and kw == 0, weights[kh * KW + kw])
        if WINDOW == "avg":
            Muls(acc, acc, 1.0 / (KH * KW), n)
        self.inQueue.FreeTensor(band)
        self.outQueue.EnQue(acc)
        acc = self.outQueue.DeQue()
        self.Store(self.yGm[(plane * self.t.oh + oh0) * self.t.ow], acc, rows, rows * self.t.ow)
        self.outQueue.FreeTensor(acc)

    def ColumnTaps(self, dst, band, aligned, base, rows, count):
        """Every band row shifted by one KW offset, at the output pitch: a strided UB copy when the
        shift is zero (whole DataBlocks), else a Gather through the offset table."""
        if aligned:
            size = sizeof(self.xGm.dtype)
            gap = (self.pitch - self.owp) * size // 32
            DataCopy(dst, band[self.lead], DataCopyParams(rows, self.owp * size // 32, gap, 0))
        else:
            Gather(dst, band, self.table.Get(int32), base, count)

    def TapWeights(self, channel):
        """The KH * KW weights of one channel as scalars (Process reads them when the channel changes, so once
        per plane, not once per band)."""
        weights = self.weights.Get(self.xGm.dtype)
        return [weights.GetValue(channel * KH * KW + k) for k in range(KH * KW)]

    def Combine(self, acc, tap, n, first, weight):
        """acc (op)= tap (times ``weight``, depthwise only); the first tap initialises acc."""
        if WINDOW == "depthwise":
            if first:
                Muls(acc, tap, weight, n)
            else:
                Axpy(acc, tap, weight, n)
        elif first:
            DataCopy(acc, tap, n)
        elif WINDOW == "max":
            Max(acc, acc, tap, n)
        else:
            Add(acc, acc, tap, n)

    def Img2col(self, unit):
        """col[n, c * KH * KW + tap, p] for every tap: the rows of the matrix conv2d multiplies."""
        plane, oh0, rows = self.Geometry(unit)
        size, ohw = sizeof(self.xGm.dtype), self.t.oh * self.t.ow
        band, table = self.inQueue.DeQue(), self.table.Get(int32)
        for kw in range(KW):
            for kh in range(KH if STRIDE != 1 else 1):
                taps = self.outQueue.AllocTensor(self.xGm.dtype)
                if STRIDE == 1:
                    span = rows + (KH - 1) * DIL_H
                    self.ColumnTaps(taps, band, kw * DIL_W == PAD_W, (self.lead + kw * DIL_W - PAD_W) * size, span,
                                    span * self.owp)
                else:
                    Gather(taps, band, table, (self.lead + kh * DIL_H * self.pitch + kw * DIL_W - PAD_W) * size,
                           rows * self.owp)
                self.outQueue.EnQue(taps)
                taps = self.outQueue.DeQue()
                for k in (range(KH) if STRIDE == 1 else [kh]):
                    tap = taps[k * DIL_H * self.owp] if STRIDE == 1 else taps
                    row = (plane * KH * KW + k * KW + kw) * ohw + oh0 * self.t.ow
                    self.Store(self.yGm[row], tap, rows, rows * self.t.ow)
                self.outQueue.FreeTensor(taps)
        self.inQueue.FreeTensor(band)

    def Store(self, dst, src, rows, count):
        """Output rows from UB (at a pitch of OW padded to 8) to consecutive GM rows."""
        if self.t.ow == self.owp:
            CopyOut(dst, src, count)
        else:
            DataCopyPad(dst, src, DataCopyExtParams(rows, self.t.ow * sizeof(self.xGm.dtype), 0, 0))


@kernel
def window_kernel(x, w, y, tiling):
    WindowKernel(x, w, y, tiling).Process()


UB_BYTES = 196352
"""Usable Unified Buffer of one AIV core on the 910B (192 KiB less the 256-byte reserve): bands are
shortened until their buffers fit."""


def window_tiling(x):
    """Output height and width and the tiling of NCHW input x for this window; bands are shortened until
    the kernel's buffers (as WindowKernel allocates them) fit in UB, and a band of one row that still
    does not fit gives up double buffering."""
    n, c, h, w = x.shape
    oh = (h + 2 * PAD_H - DIL_H * (KH - 1) - 1) // STRIDE + 1
    ow = (w + 2 * PAD_W - DIL_W * (KW - 1) - 1) // STRIDE + 1
    size, lead, owp, pitch = sizeof(x.dtype), AlignedCount(1, x.dtype), AlignedCount(ow, x.dtype), AlignedCount(w, x.dtype)
    weights = AlignedCount(c * KH * KW, x.dtype) * size if WINDOW == "depthwise" else 0
    rows, buffers = max(1, min(oh, TILE_LENGTH // owp)), BUFFER_NUM
    while True:
        in_rows = (rows - 1) * STRIDE + (KH - 1) * DIL_H + 1
        gather = in_rows if STRIDE == 1 else rows
        band = (lead + in_rows * (pitch + lead) + lead * STRIDE) * size
        out = (gather if WINDOW == "img2col" else rows) * owp * size
        taps = 0 if WINDOW == "img2col" else gather * owp * size
        if buffers * (band + out) + gather * owp * 4 + taps + weights <= UB_BYTES or (rows == 1 and buffers == 1):
            break
        if rows > 1:
            rows -= 1
        else:
            buffers = 1
    return oh, ow, WindowTiling(n * c, c, h, w, oh, ow, rows, buffers)


def run_window(x, weight=None):
    """Host side: the window operator over NCHW x, or NCL x as N x C x 1 x L (weight: depthwise filters,
    C x 1 x KH x KW)."""
    if x.dim() == 3:
        return run_window(x.unsqueeze(2), weight).squeeze(2)
    x = x.contiguous()
    oh, ow, tiling = window_tiling(x)
    taps = KH * KW if WINDOW == "img2col" else 1
    y = torch.empty(x.shape[0], x.shape[1] * taps, oh, ow, dtype=x.dtype)
    w = x if weight is None else weight.detach().contiguous()
    launch(window_kernel, BLOCK_DIM, x, w, y, tiling)
    return y
'''

SOURCE = HEADER + BODY
