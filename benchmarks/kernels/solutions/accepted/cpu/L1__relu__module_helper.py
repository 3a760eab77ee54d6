"""Accepted: a module-level launch helper with integer arithmetic on sizes (blocks of 4096 elements)."""

import torch
import torch.nn as nn

from sandboxes.targets.native import load_cpp

BLOCK = 4096

SOURCE = r"""
#include <cstdint>
extern "C" void relu_blocks(float* out, const float* x, int64_t n, int64_t block, int64_t blocks) {
    #pragma omp parallel for schedule(static)
    for (int64_t b = 0; b < blocks; ++b) {
        const int64_t end = (b + 1) * block < n ? (b + 1) * block : n;
        for (int64_t i = b * block; i < end; ++i) out[i] = x[i] > 0.0f ? x[i] : 0.0f;
    }
}
"""

lib = load_cpp("relu_blocks", SOURCE, {"relu_blocks": ["tensor", "tensor", "int", "int", "int"]})


def blocks_for(n: int) -> int:
    """Number of BLOCK-sized pieces covering n elements."""
    return (n + BLOCK - 1) // BLOCK


def launch_relu(x):
    """Allocate the output and run the kernel over every block."""
    x = x.contiguous()
    out = torch.empty(x.shape, dtype=x.dtype, device=x.device)
    n = x.numel()
    lib.relu_blocks(out, x, n, BLOCK, blocks_for(n))
    return out


class ModelNew(nn.Module):
    def forward(self, x):
        return launch_relu(x)
