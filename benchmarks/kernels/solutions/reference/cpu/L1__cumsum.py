"""Row prefix sums accumulated in double precision."""

import torch
import torch.nn as nn

from sandboxes.targets.native import load_cpp

SOURCE = r"""
#include <cstdint>
#include <cmath>
extern "C" void cumsum_rows(float* out, const float* x, int64_t rows, int64_t cols) {
    #pragma omp parallel for schedule(static)
    for (int64_t r = 0; r < rows; ++r) {
        double s = 0.0;
        for (int64_t c = 0; c < cols; ++c) { s += x[r * cols + c]; out[r * cols + c] = (float)s; }
    }
}
"""

lib = load_cpp("cumsum", SOURCE, {"cumsum_rows": ['tensor', 'tensor', 'int', 'int']}, extra_cflags=["-ffast-math"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        lib.cumsum_rows(out, x, x.size(0), x.size(1))
        return out
