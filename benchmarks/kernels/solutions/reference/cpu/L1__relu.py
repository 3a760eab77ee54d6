"""ReLU as one OpenMP-parallel, vectorisable pass over contiguous memory."""

import torch
import torch.nn as nn

from sandboxes.targets.native import load_cpp

SOURCE = r"""
#include <cstdint>
extern "C" void relu_f32(float* out, const float* x, int64_t n) {
    #pragma omp parallel for simd schedule(static)
    for (int64_t i = 0; i < n; ++i) out[i] = x[i] > 0.0f ? x[i] : 0.0f;
}
"""

lib = load_cpp("relu", SOURCE, {"relu_f32": ["tensor", "tensor", "int"]})


class ModelNew(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out = torch.empty_like(x)
        lib.relu_f32(out, x, x.numel())
        return out
