"""Scalar affine map in one pass."""

import torch
import torch.nn as nn

from sandboxes.targets.native import load_cpp

SOURCE = r"""
#include <cstdint>
#include <cmath>
extern "C" void scale_shift_f32(float* out, const float* x, int64_t n, float scale, float shift) {
    #pragma omp parallel for simd schedule(static)
    for (int64_t i = 0; i < n; ++i) out[i] = x[i] * scale + shift;
}
"""

lib = load_cpp("scale_shift", SOURCE, {"scale_shift_f32": ['tensor', 'tensor', 'int', 'float', 'float']}, extra_cflags=["-ffast-math"])


class ModelNew(nn.Module):
    def __init__(self, scale: float, shift: float):
        super().__init__()
        self.scale = scale
        self.shift = shift

    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        lib.scale_shift_f32(out, x, x.numel(), self.scale, self.shift)
        return out
