"""Residual add fused into LayerNorm: x + r is never written to memory."""

import torch
import torch.nn as nn

from sandboxes.targets.native import load_cpp

SOURCE = r"""
#include <cstdint>
#include <cmath>
extern "C" void add_layer_norm(float* out, const float* x, const float* res, const float* w, const float* b,
                               int64_t rows, int64_t cols) {
    #pragma omp parallel for schedule(static)
    for (int64_t r = 0; r < rows; ++r) {
        const float* a = x + r * cols; const float* q = res + r * cols; float* o = out + r * cols;
        float mean = 0.0f;
        #pragma omp simd reduction(+:mean)
        for (int64_t c = 0; c < cols; ++c) mean += a[c] + q[c];
        mean /= (float)cols;
        float var = 0.0f;
        #pragma omp simd reduction(+:var)
        for (int64_t c = 0; c < cols; ++c) { const float d = a[c] + q[c] - mean; var += d * d; }
        const float rstd = 1.0f / std::sqrt(var / (float)cols + 1e-5f);
        #pragma omp simd
        for (int64_t c = 0; c < cols; ++c) o[c] = (a[c] + q[c] - mean) * rstd * w[c] + b[c];
    }
}
"""

lib = load_cpp("residual_layernorm", SOURCE, {"add_layer_norm": ['tensor', 'tensor', 'tensor', 'tensor', 'tensor', 'int', 'int']}, extra_cflags=["-ffast-math"])


class ModelNew(nn.Module):
    def __init__(self, hidden: int):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden))
        self.bias = nn.Parameter(torch.zeros(hidden))

    def forward(self, x, r):
        x = x.contiguous()
        r = r.contiguous()
        out = torch.empty_like(x)
        lib.add_layer_norm(out, x, r, self.weight, self.bias, x.size(0), x.size(1))
        return out
