"""tanh(2x + y) / 2 in one pass, tanh through one vectorised exp.
exp's argument is capped at 80: past it, -ffast-math's exp gives inf, then NaN."""

import torch
import torch.nn as nn

from sandboxes.targets.native import load_cpp

SOURCE = r"""
#include <cstdint>
#include <cmath>
extern "C" void scale_add_tanh(float* out, const float* x, const float* y, int64_t n) {
    #pragma omp parallel for simd schedule(static)
    for (int64_t i = 0; i < n; ++i) {
        const float u = 2.0f * x[i] + y[i];
        out[i] = 0.5f - 1.0f / (std::exp(std::fmin(2.0f * u, 80.0f)) + 1.0f);
    }
}
"""

lib = load_cpp("scale_add_tanh", SOURCE, {"scale_add_tanh": ['tensor', 'tensor', 'tensor', 'int']}, extra_cflags=["-ffast-math"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x, y):
        x = x.contiguous()
        y = y.contiguous()
        out = torch.empty_like(x)
        lib.scale_add_tanh(out, x, y, x.numel())
        return out
