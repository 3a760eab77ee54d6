"""RMSNorm and SiLU fused into one pass per row."""

import torch
import torch.nn as nn

from sandboxes.targets.native import load_cpp

SOURCE = r"""
#include <cstdint>
#include <cmath>
extern "C" void rms_norm(float* out, const float* x, const float* w, int64_t rows, int64_t cols, int64_t silu) {
    #pragma omp parallel for schedule(static)
    for (int64_t r = 0; r < rows; ++r) {
        const float* in = x + r * cols; float* o = out + r * cols;
        float ss = 0.0f;
        #pragma omp simd reduction(+:ss)
        for (int64_t c = 0; c < cols; ++c) ss += in[c] * in[c];
        const float scale = 1.0f / std::sqrt(ss / (float)cols + 1e-6f);
        if (silu) {
            #pragma omp simd
            for (int64_t c = 0; c < cols; ++c) { const float y = in[c] * scale * w[c]; o[c] = y / (1.0f + std::exp(-y)); }
        } else {
            #pragma omp simd
            for (int64_t c = 0; c < cols; ++c) o[c] = in[c] * scale * w[c];
        }
    }
}
"""

lib = load_cpp("rmsnorm_scale_silu", SOURCE, {"rms_norm": ['tensor', 'tensor', 'tensor', 'int', 'int', 'int']}, extra_cflags=["-ffast-math"])


class ModelNew(nn.Module):
    def __init__(self, hidden: int):
        super().__init__()
        self.weight = nn.Parameter(torch.rand(hidden) + 0.5)

    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        lib.rms_norm(out, x, self.weight, x.size(0), x.size(1), 1)
        return out
