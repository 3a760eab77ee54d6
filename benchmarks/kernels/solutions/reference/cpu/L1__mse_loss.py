"""Mean squared error as one fused, parallel reduction (no difference tensor)."""

import torch
import torch.nn as nn

from sandboxes.targets.native import load_cpp

SOURCE = r"""
#include <cstdint>
#include <cmath>
extern "C" void mse(float* out, const float* p, const float* t, int64_t n) {
    double s = 0.0;
    #pragma omp parallel for simd reduction(+:s) schedule(static)
    for (int64_t i = 0; i < n; ++i) { const float d = p[i] - t[i]; s += d * d; }
    out[0] = (float)(s / (double)n);
}
"""

lib = load_cpp("mse_loss", SOURCE, {"mse": ['tensor', 'tensor', 'tensor', 'int']}, extra_cflags=["-ffast-math"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, pred, target):
        pred = pred.contiguous()
        target = target.contiguous()
        out = torch.empty((), dtype=pred.dtype)
        lib.mse(out, pred, target, pred.numel())
        return out
