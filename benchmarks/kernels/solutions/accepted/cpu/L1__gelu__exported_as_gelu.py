"""Accepted: exact (erf) GELU from C++, exported under the torch op's own name and called as lib.gelu(out, x, n)."""

import torch
import torch.nn as nn

from sandboxes.targets.native import load_cpp

SOURCE = r"""
#include <cmath>
#include <cstdint>
extern "C" void gelu(float* out, const float* x, int64_t n) {
    #pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; ++i) out[i] = 0.5f * x[i] * (1.0f + std::erf(x[i] * 0.70710678118654752f));
}
"""

lib = load_cpp("gelu", SOURCE, {"gelu": ["tensor", "tensor", "int"]})


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        lib.gelu(out, x, x.numel())
        return out
