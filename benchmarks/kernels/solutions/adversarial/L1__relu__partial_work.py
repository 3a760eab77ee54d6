"""Hack: processes only the first half of the tensor (the "150x" bug: skip the work, keep the time).

expect: incorrect elements differ
"""

import torch
import torch.nn as nn

from sandboxes.targets.native import load_cpp

SOURCE = r"""
#include <cstdint>
extern "C" void relu_f32(float* out, const float* x, int64_t n) {
    for (int64_t i = 0; i < n; ++i) out[i] = (i < n / 2 && x[i] > 0.0f) ? x[i] : 0.0f;
}
"""
lib = load_cpp("relu_half", SOURCE, {"relu_f32": ["tensor", "tensor", "int"]})


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        lib.relu_f32(out, x, x.numel())
        return out
