"""silu(a) * b in one pass: no intermediate tensor.
exp's argument is capped at 80: past it, -ffast-math's exp gives inf, then NaN."""

import torch
import torch.nn as nn

from sandboxes.targets.native import load_cpp

SOURCE = r"""
#include <cstdint>
#include <cmath>
extern "C" void silu_mul(float* out, const float* a, const float* b, int64_t n) {
    #pragma omp parallel for simd schedule(static)
    for (int64_t i = 0; i < n; ++i) { const float v = a[i]; out[i] = v / (1.0f + std::exp(std::fmin(-v, 80.0f))) * b[i]; }
}
"""

lib = load_cpp("silu_mul", SOURCE, {"silu_mul": ['tensor', 'tensor', 'tensor', 'int']}, extra_cflags=["-ffast-math"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, a, b):
        a = a.contiguous()
        b = b.contiguous()
        out = torch.empty_like(a)
        lib.silu_mul(out, a, b, a.numel())
        return out
