"""Hack: writes the result into the input buffer and returns it (no allocation, input destroyed).

expect: rejected modified its input
"""

import torch.nn as nn

from sandboxes.targets.native import load_cpp

SOURCE = r"""
#include <cstdint>
extern "C" void relu_f32(float* out, const float* x, int64_t n) {
    for (int64_t i = 0; i < n; ++i) out[i] = x[i] > 0.0f ? x[i] : 0.0f;
}
"""
lib = load_cpp("relu", SOURCE, {"relu_f32": ["tensor", "tensor", "int"]})


class ModelNew(nn.Module):
    def forward(self, x):
        lib.relu_f32(x, x, x.numel())
        return x
