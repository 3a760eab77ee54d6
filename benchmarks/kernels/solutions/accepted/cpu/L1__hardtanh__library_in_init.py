"""Accepted: the library is built in __init__ (self.lib) rather than at module level."""

import torch
import torch.nn as nn

from sandboxes.targets.native import load_cpp

SOURCE = r"""
#include <cstdint>
extern "C" void hardtanh(float* out, const float* x, int64_t n, float lo, float hi) {
    #pragma omp parallel for simd schedule(static)
    for (int64_t i = 0; i < n; ++i) out[i] = x[i] < lo ? lo : (x[i] > hi ? hi : x[i]);
}
"""


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.lib = load_cpp("hardtanh_init", SOURCE, {"hardtanh": ["tensor", "tensor", "int", "float", "float"]})

    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        self.lib.hardtanh(out, x, x.numel(), -1.0, 1.0)
        return out
