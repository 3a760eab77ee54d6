"""Accepted: C++ with the standard library (std::vector scratch, a template, a lambda, std::tanh)."""

import torch
import torch.nn as nn

from sandboxes.targets.native import load_cpp

SOURCE = r"""
#include <cmath>
#include <cstdint>
#include <vector>
#include <algorithm>

template <typename T>
static inline T tanh_of(T v) { return std::tanh(v); }

extern "C" void tanh_std(float* out, const float* x, int64_t n) {
    const int64_t tile = 1024;
    #pragma omp parallel
    {
        std::vector<float> scratch(tile);
        #pragma omp for schedule(static)
        for (int64_t start = 0; start < n; start += tile) {
            const int64_t count = std::min(tile, n - start);
            std::transform(x + start, x + start + count, scratch.begin(), [](float v) { return tanh_of(v); });
            std::copy(scratch.begin(), scratch.begin() + count, out + start);
        }
    }
}
"""

lib = load_cpp("tanh_std", SOURCE, {"tanh_std": ["tensor", "tensor", "int"]})


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        lib.tanh_std(out, x, x.numel())
        return out
