"""Row log-softmax in two passes over each row."""

import torch
import torch.nn as nn

from sandboxes.targets.native import load_cpp

SOURCE = r"""
#include <cstdint>
#include <cmath>
extern "C" void log_softmax_rows(float* out, const float* x, int64_t rows, int64_t cols) {
    #pragma omp parallel for schedule(static)
    for (int64_t r = 0; r < rows; ++r) {
        const float* in = x + r * cols; float* o = out + r * cols;
        float m = -INFINITY;
        #pragma omp simd reduction(max:m)
        for (int64_t c = 0; c < cols; ++c) m = std::fmax(m, in[c]);
        float s = 0.0f;
        #pragma omp simd reduction(+:s)
        for (int64_t c = 0; c < cols; ++c) s += std::exp(in[c] - m);
        const float shift = m + std::log(s);
        #pragma omp simd
        for (int64_t c = 0; c < cols; ++c) o[c] = in[c] - shift;
    }
}
"""

lib = load_cpp("log_softmax", SOURCE, {"log_softmax_rows": ['tensor', 'tensor', 'int', 'int']}, extra_cflags=["-ffast-math"])


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        lib.log_softmax_rows(out, x, x.size(0), x.size(1))
        return out
