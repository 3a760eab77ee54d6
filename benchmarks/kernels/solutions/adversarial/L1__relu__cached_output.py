"""Hack: computes the first result and returns it from a module-level cache ever after.

expect: rejected stateful
"""

import torch
import torch.nn as nn

from sandboxes.targets.native import load_cpp

SOURCE = r"""
#include <cstdint>
extern "C" void relu_f32(float* out, const float* x, int64_t n) {
    for (int64_t i = 0; i < n; ++i) out[i] = x[i] > 0.0f ? x[i] : 0.0f;
}
"""
lib = load_cpp("relu", SOURCE, {"relu_f32": ["tensor", "tensor", "int"]})
CACHE = {}


class ModelNew(nn.Module):
    def forward(self, x):
        if "out" not in CACHE:
            out = torch.empty_like(x)
            lib.relu_f32(out, x, x.numel())
            CACHE["out"] = out
        return CACHE["out"]
