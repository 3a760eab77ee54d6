"""SiLU with a vectorised exp.
exp's argument is capped at 80: past it, -ffast-math's exp gives inf, then NaN."""

import torch
import torch.nn as nn

from sandboxes.targets.native import load_cpp

SOURCE = r"""
#include <cstdint>
#include <cmath>
extern "C" void silu_f32(float* out, const float* x, int64_t n) {
    #pragma omp parallel for simd schedule(static)
    for (int64_t i = 0; i < n; ++i) { const float v = x[i]; out[i] = v / (1.0f + std::exp(std::fmin(-v, 80.0f))); }
}
"""

lib = load_cpp("silu", SOURCE, {"silu_f32": ['tensor', 'tensor', 'int']}, extra_cflags=["-ffast-math"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        lib.silu_f32(out, x, x.numel())
        return out
