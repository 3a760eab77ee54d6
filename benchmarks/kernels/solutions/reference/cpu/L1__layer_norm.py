"""LayerNorm: two passes per row (mean, variance) and a fused affine output."""

import torch
import torch.nn as nn

from sandboxes.targets.native import load_cpp

SOURCE = r"""
#include <cstdint>
#include <cmath>
static inline void norm_row(float* o, const float* in, const float* w, const float* b, int64_t cols, float eps) {
    float mean = 0.0f;
    #pragma omp simd reduction(+:mean)
    for (int64_t c = 0; c < cols; ++c) mean += in[c];
    mean /= (float)cols;
    float var = 0.0f;
    #pragma omp simd reduction(+:var)
    for (int64_t c = 0; c < cols; ++c) { const float d = in[c] - mean; var += d * d; }
    const float rstd = 1.0f / std::sqrt(var / (float)cols + eps);
    #pragma omp simd
    for (int64_t c = 0; c < cols; ++c) o[c] = (in[c] - mean) * rstd * w[c] + b[c];
}

extern "C" void layer_norm(float* out, const float* x, const float* w, const float* b, int64_t rows, int64_t cols) {
    #pragma omp parallel for schedule(static)
    for (int64_t r = 0; r < rows; ++r) norm_row(out + r * cols, x + r * cols, w, b, cols, 1e-5f);
}
"""

lib = load_cpp("layer_norm", SOURCE, {"layer_norm": ['tensor', 'tensor', 'tensor', 'tensor', 'int', 'int']}, extra_cflags=["-ffast-math"])


class ModelNew(nn.Module):
    def __init__(self, hidden: int):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden))
        self.bias = nn.Parameter(torch.zeros(hidden))

    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        lib.layer_norm(out, x, self.weight, self.bias, x.size(0), x.size(1))
        return out
