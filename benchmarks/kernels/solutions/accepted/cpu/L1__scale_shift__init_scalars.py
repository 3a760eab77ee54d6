"""Accepted: the scale and shift from get_init_inputs are kept as plain floats and passed to the kernel."""

import torch
import torch.nn as nn

from sandboxes.targets.native import load_cpp

SOURCE = r"""
#include <cstdint>
extern "C" void affine(float* out, const float* x, int64_t n, float scale, float shift) {
    #pragma omp parallel for simd schedule(static)
    for (int64_t i = 0; i < n; ++i) out[i] = x[i] * scale + shift;
}
"""

lib = load_cpp("affine", SOURCE, {"affine": ["tensor", "tensor", "int", "float", "float"]})


class ModelNew(nn.Module):
    def __init__(self, scale: float, shift: float):
        super().__init__()
        self.scale = float(scale)
        self.shift = float(shift)
        self.half_shift = shift / 2

    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        lib.affine(out, x, x.numel(), self.scale, self.half_shift * 2)
        return out
