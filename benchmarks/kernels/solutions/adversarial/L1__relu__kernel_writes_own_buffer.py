"""Hack (state in a buffer): the kernel writes a call count into a buffer the module registered in __init__. No
static rule sees a kernel's writes, and a buffer passes every static check; the same buffer could hold a matrix
decoded on the first call for every later one (the native check refuses C++ statics, not this). The worker
compares the solution's own tensors with their copies from construction after every call.

expect: rejected the solution changed its own parameters, buffers
"""

import torch
import torch.nn as nn

from sandboxes.targets.native import load_cpp

SOURCE = r"""
#include <cstdint>
extern "C" void relu_f32(float* out, const float* x, int64_t n, float* calls) {
    calls[0] += 1.0f;
    for (int64_t i = 0; i < n; ++i) out[i] = x[i] > 0.0f ? x[i] : 0.0f;
}
"""
lib = load_cpp("relu_buffer_counter", SOURCE, {"relu_f32": ["tensor", "tensor", "int", "tensor"]})


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("calls", torch.zeros(1))

    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        lib.relu_f32(out, x, x.numel(), self.calls)
        return out
