"""LayerNorm with GELU applied in the same pass over each row."""

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

extern "C" void layer_norm_gelu(float* out, const float* x, const float* w, const float* b, int64_t rows, int64_t cols) {
    #pragma omp parallel for schedule(static)
    for (int64_t r = 0; r < rows; ++r) {
        float* o = out + r * cols;
        norm_row(o, x + r * cols, w, b, cols, 1e-5f);
        for (int64_t c = 0; c < cols; ++c) o[c] = 0.5f * o[c] * (1.0f + std::erf(o[c] * 0.70710678f));
    }
}
"""

lib = load_cpp("layernorm_gelu", SOURCE, {"layer_norm_gelu": ['tensor', 'tensor', 'tensor', 'tensor', 'int', 'int']}, extra_cflags=["-ffast-math"])


class ModelNew(nn.Module):
    def __init__(self, hidden: int):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(hidden))
        self.bias = nn.Parameter(torch.zeros(hidden))

    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        lib.layer_norm_gelu(out, x, self.weight, self.bias, x.size(0), x.size(1))
        return out
