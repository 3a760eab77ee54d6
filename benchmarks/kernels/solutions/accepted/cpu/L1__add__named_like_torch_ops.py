"""Accepted: the kernel library exports functions named like torch ops (add, mul, relu); only add is used."""

import torch
import torch.nn as nn

from sandboxes.targets.native import load_cpp

SOURCE = r"""
#include <cstdint>
extern "C" void add(float* out, const float* a, const float* b, int64_t n) {
    #pragma omp parallel for simd schedule(static)
    for (int64_t i = 0; i < n; ++i) out[i] = a[i] + b[i];
}
extern "C" void mul(float* out, const float* a, const float* b, int64_t n) {
    for (int64_t i = 0; i < n; ++i) out[i] = a[i] * b[i];
}
extern "C" void relu(float* out, const float* x, int64_t n) {
    for (int64_t i = 0; i < n; ++i) out[i] = x[i] > 0.0f ? x[i] : 0.0f;
}
"""

ops = load_cpp("torch_named_ops", SOURCE, {"add": ["tensor", "tensor", "tensor", "int"],
                                           "mul": ["tensor", "tensor", "tensor", "int"],
                                           "relu": ["tensor", "tensor", "int"]})


class ModelNew(nn.Module):
    def forward(self, a, b):
        a, b = a.contiguous(), b.contiguous()
        out = torch.empty_like(a)
        ops.add(out, a, b, a.numel())
        return out
