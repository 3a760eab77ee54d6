"""Template text of the channel family: per-channel affine maps over NCHW planes (batch norm with
running statistics, group norm, a bias), with an optional per-channel bias before them (a
convolution's) and fused element-wise stages after. ``HEADER`` holds the ${PARAM} placeholders."""

HEADER = r'''TILE_LENGTH = ${TILE_LENGTH}
"""Elements of a channel plane per chunk."""
BUFFER_NUM = ${BUFFER_NUM}
"""Buffers per queue: 2 overlaps loading, the affine map and storing."""
BLOCK_DIM = ${BLOCK_DIM}
"""Cores; (sample, group) units are split over them."""
'''

MAP = r'''AFFINE = "${AFFINE}"
"""batch_norm: running statistics; group_norm: statistics of each group; bias: only the per-channel bias;
row_scale: the rows of a matrix times one weight each (diag(w) @ x); batch_stats: batch norm in training
mode (each channel's statistics over every sample's plane of it)."""
EPS = ${EPS}
GROUPS = ${GROUPS}
"""Channel groups of group norm (each group's statistics are shared by its channels)."""
STAGES = ${STAGES}
"""Whether fused element-wise stages run on every mapped chunk before it is stored."""


def compute(y, x, x2, t1, t2, n):
${COMPUTE}
'''

BODY = r'''

AFFINE_PARAMS = ("batch_norm", "group_norm", "batch_stats")
"""Maps with a per-channel weight and bias."""


class ChannelTiling(TilingData):
    units: int
    channels: int
    group: int
    plane: int
    tile: int
    has_pre: bool
    batch: int


class ChannelKernel:
    """y = x * scale[c] + shift[c] per channel plane; the per-channel scalars come from the parameters
    (loaded once into UB: weight, bias, mean, var, pre-bias) and, for group norm, from a first pass."""

    def __init__(self, x, params, y, tiling):
        self.t = tiling
        self.cols = tiling.group * tiling.plane
        self.tile = min(tiling.tile, tiling.plane)
        unit0, self.nunits = BlockSpan(tiling.units)
        self.unit0 = unit0
        self.xGm, self.yGm = GlobalTensor(), GlobalTensor()
        self.paramGm = [GlobalTensor() for _ in params]
        self.pipe = TPipe()
        self.inQueue, self.outQueue = TQue(TPosition.VECIN), TQue(TPosition.VECOUT)
        self.params, self.work = TBuf(), TBuf()
        if self.nunits > 0:
            if AFFINE == "batch_stats":  # a unit is a channel: its planes are strided over the samples
                self.xGm.SetGlobalBuffer(x)
                self.yGm.SetGlobalBuffer(y)
            else:
                self.xGm.SetGlobalBuffer(x[unit0 * self.cols], self.nunits * self.cols)
                self.yGm.SetGlobalBuffer(y[unit0 * self.cols], self.nunits * self.cols)
            for gm, source in zip(self.paramGm, params):
                gm.SetGlobalBuffer(source, tiling.channels)
            dtype = self.xGm.dtype
            self.padded = AlignedCount(self.tile, dtype)
            self.cpad = AlignedCount(tiling.channels, dtype)
            self.pipe.InitBuffer(self.inQueue, BUFFER_NUM, self.padded * sizeof(dtype))
            self.pipe.InitBuffer(self.outQueue, BUFFER_NUM, self.padded * sizeof(dtype))
            self.pipe.InitBuffer(self.params, 5 * self.cpad * sizeof(dtype))
            self.pipe.InitBuffer(self.work, 2 * self.padded * sizeof(dtype))

    def Process(self):
        if self.nunits == 0:
            return
        params = self.params.Get(self.xGm.dtype)
        for k in range(5):
            if k == 4 and self.t.has_pre or k < {"batch_norm": 4, "group_norm": 2, "bias": 0, "row_scale": 1,
                                                 "batch_stats": 2}[AFFINE]:
                CopyIn(params[k * self.cpad], self.paramGm[k], self.t.channels)
        if AFFINE == "batch_stats":
            self.BatchStatistics(params)
            return
        for u in range(self.nunits):
            first = (self.unit0 + u) * self.t.group % self.t.channels
            channels = range(first, first + self.t.group)
            planes = [self.xGm[u * self.cols + g * self.t.plane] for g in range(self.t.group)]
            mean, rstd = self.Statistics(planes, params, channels) if AFFINE == "group_norm" else (0.0, 1.0)
            for g in range(self.t.group):
                c = first + g
                pre = params.GetValue(4 * self.cpad + c) if self.t.has_pre else 0.0
                weight, bias = (params.GetValue(c), params.GetValue(self.cpad + c)) if AFFINE in AFFINE_PARAMS \
                    else (params.GetValue(c) if AFFINE == "row_scale" else 1.0, 0.0)
                if AFFINE == "batch_norm":
                    mean = params.GetValue(2 * self.cpad + c)
                    rstd = 1.0 / ScalarSqrt(params.GetValue(3 * self.cpad + c) + EPS)
                scale = rstd * weight
                offset = u * self.cols + g * self.t.plane
                self.Apply(self.xGm[offset], self.yGm[offset], scale, bias + (pre - mean) * scale)

    def Load(self, src, n):
        x = self.inQueue.AllocTensor(self.xGm.dtype)
        CopyIn(x, src, n)
        self.inQueue.EnQue(x)
        return self.inQueue.DeQue()

    def BatchStatistics(self, params):
        """Training-mode batch norm: per channel, the statistics of its planes in every sample, then the map."""
        for u in range(self.nunits):
            c = self.unit0 + u
            planes = [(s * self.t.channels + c) * self.t.plane for s in range(self.t.batch)]
            mean, rstd = self.Statistics([self.xGm[o] for o in planes], params, [c] * self.t.batch)
            scale = rstd * params.GetValue(c)
            pre = params.GetValue(4 * self.cpad + c) if self.t.has_pre else 0.0
            shift = params.GetValue(self.cpad + c) + (pre - mean) * scale
            for offset in planes:
                self.Apply(self.xGm[offset], self.yGm[offset], scale, shift)

    def Statistics(self, planes, params, channels):
        """Mean and 1/std of (x + pre-bias) over the planes (GM views, one channel each): per-plane sums,
        the bias added on the scalar unit."""
        scratch = self.work.Get(self.xGm.dtype)
        sq, work = scratch, scratch[self.padded]
        total, squares = 0.0, 0.0
        for plane, c in zip(planes, channels):
            pre = params.GetValue(4 * self.cpad + c) if self.t.has_pre else 0.0
            plane_sum, plane_squares = 0.0, 0.0
            for start in range(0, self.t.plane, self.tile):
                n = min(self.tile, self.t.plane - start)
                x = self.Load(plane[start], n)
                Mul(sq, x, x, n)
                ReduceSum(work, x, work, n)
                plane_sum += work.GetValue(0)
                self.inQueue.FreeTensor(x)
                ReduceSum(work, sq, work, n)
                plane_squares += work.GetValue(0)
            total += plane_sum + self.t.plane * pre
            squares += plane_squares + 2.0 * pre * plane_sum + self.t.plane * pre * pre
        count = len(planes) * self.t.plane
        mean = total / count
        return mean, 1.0 / ScalarSqrt(max(squares / count - mean * mean, 0.0) + EPS)

    def Apply(self, src, dst, scale, shift):
        """dst = stages(src * scale + shift) over one channel plane."""
        scratch = self.work.Get(self.xGm.dtype)
        for start in range(0, self.t.plane, self.tile):
            n = min(self.tile, self.t.plane - start)
            x = self.Load(src[start], n)
            y = self.outQueue.AllocTensor(self.xGm.dtype)
            z = x if STAGES else y
            if AFFINE == "bias":
                Adds(z, x, shift, n)
            elif AFFINE == "row_scale":
                Muls(z, x, scale, n)
            else:
                Muls(z, x, scale, n)
                Adds(z, z, shift, n)
            if STAGES:
                compute(y, x, x, scratch, scratch[self.padded], n)
            self.outQueue.EnQue(y)
            self.inQueue.FreeTensor(x)
            y = self.outQueue.DeQue()
            CopyOut(dst[start], y, n)
            self.outQueue.FreeTensor(y)


@kernel
def channel_kernel(x, w, b, mean, var, pre, y, tiling):
    ChannelKernel(x, (w, b, mean, var, pre), y, tiling).Process()


def run_channel(x, weight=None, bias=None, mean=None, var=None, pre=None):
    """Host side: the per-channel map over NCHW x (weight, bias, running statistics, a bias before them);
    for row_scale, x is a matrix whose rows are the channels."""
    if AFFINE == "row_scale" and x.dim() == 2:
        return run_channel(x.unsqueeze(0), weight).squeeze(0)
    x = x.contiguous()
    channels = x.shape[1]
    group = channels // GROUPS if AFFINE == "group_norm" else 1
    plane = x.numel() // (x.shape[0] * channels)
    y = torch.empty_like(x)
    params = [x if p is None else p.detach().contiguous() for p in (weight, bias, mean, var, pre)]
    units = channels if AFFINE == "batch_stats" else x.shape[0] * channels // group
    tiling = ChannelTiling(units, channels, group, plane, TILE_LENGTH, pre is not None, x.shape[0])
    launch(channel_kernel, BLOCK_DIM, x, *params, y, tiling)
    return y
'''

SOURCE = HEADER + MAP + BODY
