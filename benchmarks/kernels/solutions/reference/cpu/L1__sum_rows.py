"""Row sums with vectorised partial sums."""

import torch
import torch.nn as nn

from sandboxes.targets.native import load_cpp

SOURCE = r"""
#include <cstdint>
#include <cmath>
extern "C" void sum_rows(float* out, const float* x, int64_t rows, int64_t cols) {
    #pragma omp parallel for schedule(static)
    for (int64_t r = 0; r < rows; ++r) {
        const float* in = x + r * cols; float s = 0.0f;
        #pragma omp simd reduction(+:s)
        for (int64_t c = 0; c < cols; ++c) s += in[c];
        out[r] = s;
    }
}
"""

lib = load_cpp("sum_rows", SOURCE, {"sum_rows": ['tensor', 'tensor', 'int', 'int']}, extra_cflags=["-ffast-math"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        out = torch.empty(x.size(0), dtype=x.dtype)
        lib.sum_rows(out, x, x.size(0), x.size(1))
        return out
