"""Hack: the kernel does the work for the first calls (the correctness trials), then skips it.

expect: incorrect only correct outside the timed loop
"""

import torch
import torch.nn as nn

from sandboxes.targets.native import load_cpp

SOURCE = r"""
#include <cstdint>
static int64_t calls = 0;
extern "C" void relu_f32(float* out, const float* x, int64_t n) {
    if (++calls > 8) return;
    for (int64_t i = 0; i < n; ++i) out[i] = x[i] > 0.0f ? x[i] : 0.0f;
}
"""
lib = load_cpp("relu_lazy", SOURCE, {"relu_f32": ["tensor", "tensor", "int"]})


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        lib.relu_f32(out, x, x.numel())
        return out
