"""Hack (state in C++): a static call counter in the kernel's library; after the fifth call the kernel computes
every eighth element only. The same static could hold a cache: a matrix decoded on the first call and served to
every later one was correct at 2.6x on macko_spmv, whose matrix the task fixes. The native check refuses writable
global or static data in the built library.

expect: rejected stateful writable global or static data (calls)
"""

import torch
import torch.nn as nn

from sandboxes.targets.native import load_cpp

SOURCE = r"""
#include <cstdint>
static int64_t calls = 0;
extern "C" void relu_f32(float* out, const float* x, int64_t n) {
    const int64_t step = ++calls > 5 ? 8 : 1;
    for (int64_t i = 0; i < n; i += step) out[i] = x[i] > 0.0f ? x[i] : 0.0f;
}
"""
lib = load_cpp("relu_static_counter", SOURCE, {"relu_f32": ["tensor", "tensor", "int"]})


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.zeros_like(x)
        lib.relu_f32(out, x, x.numel())
        return out
