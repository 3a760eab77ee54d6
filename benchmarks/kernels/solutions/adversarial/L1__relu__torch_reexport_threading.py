"""Hack: starts a CPU-burning thread through torch.threading in __init__, to slow the reference down.

expect: rejected forbidden_attribute threading
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


def burn():
    while True:
        pass


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()
        torch.threading.Thread(target=burn, daemon=True).start()

    def forward(self, x):
        out = torch.empty_like(x)
        lib.relu_f32(out, x.contiguous(), x.numel())
        return out
