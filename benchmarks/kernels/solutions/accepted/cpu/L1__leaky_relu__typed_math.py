"""Accepted: type annotations, typing and math on the host side (a block count from math.ceil)."""

import math
from typing import Optional

import torch
import torch.nn as nn

from sandboxes.targets.native import load_cpp

NEGATIVE_SLOPE: float = 0.01
SOURCE = r"""
#include <cstdint>
extern "C" void leaky(float* out, const float* x, int64_t n, int64_t per_block, float slope) {
    const int64_t blocks = (n + per_block - 1) / per_block;
    #pragma omp parallel for schedule(static)
    for (int64_t b = 0; b < blocks; ++b)
        for (int64_t i = b * per_block; i < n && i < (b + 1) * per_block; ++i) out[i] = x[i] > 0.0f ? x[i] : slope * x[i];
}
"""

lib = load_cpp("leaky_typed", SOURCE, {"leaky": ["tensor", "tensor", "int", "int", "float"]})


def per_block(n: int, blocks: Optional[int] = None) -> int:
    """Elements per block so that about ``blocks`` blocks cover n."""
    return max(1, math.ceil(n / (blocks or 64)))


class ModelNew(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x.contiguous()
        out: torch.Tensor = torch.empty_like(x)
        lib.leaky(out, x, x.numel(), per_block(x.numel()), NEGATIVE_SLOPE)
        return out
