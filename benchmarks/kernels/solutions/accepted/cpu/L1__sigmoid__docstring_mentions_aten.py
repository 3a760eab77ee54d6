"""Accepted: sigmoid as 1 / (1 + exp(-x)) in C++.

This kernel replaces at::sigmoid(x) (what torch.sigmoid(x) dispatches to, via at::_ops::sigmoid::call)
and never calls at::relu( or any other ATen op: the docstring only talks about them.
"""

import torch
import torch.nn as nn

from sandboxes.targets.native import load_cpp

SOURCE = r"""
#include <cmath>
#include <cstdint>
// Not at::sigmoid(x): a plain loop.
extern "C" void sigmoid_f32(float* out, const float* x, int64_t n) {
    #pragma omp parallel for simd schedule(static)
    for (int64_t i = 0; i < n; ++i) out[i] = 1.0f / (1.0f + std::exp(-x[i]));
}
"""

lib = load_cpp("sigmoid_doc", SOURCE, {"sigmoid_f32": ["tensor", "tensor", "int"]}, extra_cflags=["-ffast-math"])


class ModelNew(nn.Module):
    """Calls sigmoid_f32, not torch.sigmoid(x) or x.sigmoid()."""

    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        lib.sigmoid_f32(out, x, x.numel())
        return out
