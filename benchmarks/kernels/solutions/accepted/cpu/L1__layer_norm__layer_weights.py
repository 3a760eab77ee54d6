"""Accepted: KernelBench style weights: the nn.LayerNorm is built in __init__ only to hold weight and bias,
which forward passes to the C++ kernel (the layer itself is never called)."""

import torch
import torch.nn as nn

from sandboxes.targets.native import load_cpp

SOURCE = r"""
#include <cmath>
#include <cstdint>
extern "C" void layer_norm_rows(float* out, const float* x, const float* w, const float* b, int64_t rows,
                                int64_t cols, double eps) {
    #pragma omp parallel for schedule(static)
    for (int64_t r = 0; r < rows; ++r) {
        const float* in = x + r * cols;
        double mean = 0.0, var = 0.0;
        for (int64_t c = 0; c < cols; ++c) mean += in[c];
        mean /= cols;
        for (int64_t c = 0; c < cols; ++c) var += (in[c] - mean) * (in[c] - mean);
        const double rstd = 1.0 / std::sqrt(var / cols + eps);
        for (int64_t c = 0; c < cols; ++c) out[r * cols + c] = (float)((in[c] - mean) * rstd) * w[c] + b[c];
    }
}
"""

lib = load_cpp("layer_norm_rows", SOURCE, {"layer_norm_rows": ["tensor"] * 4 + ["int", "int", "double"]})


class ModelNew(nn.Module):
    def __init__(self, hidden: int):
        super().__init__()
        self.norm = nn.LayerNorm(hidden)

    def forward(self, x):
        x = x.contiguous()
        rows, cols = x.shape
        out = torch.empty_like(x)
        lib.layer_norm_rows(out, x, self.norm.weight.detach().contiguous(), self.norm.bias.detach().contiguous(),
                            rows, cols, self.norm.eps)
        return out
