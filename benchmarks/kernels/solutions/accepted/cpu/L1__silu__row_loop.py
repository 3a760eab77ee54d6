"""Accepted: the host walks the rows and launches the kernel once per row on a view of it."""

import torch
import torch.nn as nn

from sandboxes.targets.native import load_cpp

SOURCE = r"""
#include <cmath>
#include <cstdint>
extern "C" void silu_row(float* out, const float* x, int64_t n) {
    #pragma omp simd
    for (int64_t i = 0; i < n; ++i) out[i] = x[i] / (1.0f + std::exp(-x[i]));
}
"""

lib = load_cpp("silu_row", SOURCE, {"silu_row": ["tensor", "tensor", "int"]})


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        for row in range(x.size(0)):
            lib.silu_row(out[row], x[row], x.size(1))
        return out
