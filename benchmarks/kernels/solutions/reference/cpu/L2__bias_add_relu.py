"""Bias add and ReLU fused; the bias row stays in cache."""

import torch
import torch.nn as nn

from sandboxes.targets.native import load_cpp

SOURCE = r"""
#include <cstdint>
#include <cmath>
extern "C" void bias_relu(float* out, const float* x, const float* bias, int64_t rows, int64_t cols) {
    #pragma omp parallel for schedule(static)
    for (int64_t r = 0; r < rows; ++r) {
        #pragma omp simd
        for (int64_t c = 0; c < cols; ++c) { const float v = x[r * cols + c] + bias[c]; out[r * cols + c] = v > 0.0f ? v : 0.0f; }
    }
}
"""

lib = load_cpp("bias_add_relu", SOURCE, {"bias_relu": ['tensor', 'tensor', 'tensor', 'int', 'int']}, extra_cflags=["-ffast-math"])


class ModelNew(nn.Module):
    def __init__(self, features: int):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(features))

    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        lib.bias_relu(out, x, self.bias, x.size(0), x.size(1))
        return out
