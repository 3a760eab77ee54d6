"""Accepted: row sums that read the input through its strides (view, size and stride queries only)."""

import torch
import torch.nn as nn

from sandboxes.targets.native import load_cpp

SOURCE = r"""
#include <cstdint>
extern "C" void sum_rows_strided(float* out, const float* x, int64_t rows, int64_t cols, int64_t row_stride) {
    #pragma omp parallel for schedule(static)
    for (int64_t r = 0; r < rows; ++r) {
        float acc = 0.0f;
        #pragma omp simd reduction(+:acc)
        for (int64_t c = 0; c < cols; ++c) acc += x[r * row_stride + c];
        out[r] = acc;
    }
}
"""

lib = load_cpp("sum_rows_strided", SOURCE, {"sum_rows_strided": ["tensor", "tensor", "int", "int", "int"]})


class ModelNew(nn.Module):
    def forward(self, x):
        flat = x.contiguous().view(x.size(0), -1)
        out = flat.new_empty((flat.size(0),))
        lib.sum_rows_strided(out, flat, flat.size(0), flat.size(1), flat.stride(0))
        return out
