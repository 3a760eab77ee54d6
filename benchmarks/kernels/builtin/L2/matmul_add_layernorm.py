"""Matmul, residual add and LayerNorm: LN(x @ W + x)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 512
hidden = 1024
GPU_SHAPES = {'batch_size': 8192, 'hidden': 4096}


class Model(nn.Module):
    """Matmul, residual add and LayerNorm: LN(x @ W + x)."""

    def __init__(self, hidden: int):
        super().__init__()
        self.weight = nn.Parameter(torch.randn(hidden, hidden) / hidden ** 0.5)
        self.norm = nn.LayerNorm(hidden)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.norm(torch.matmul(x, self.weight) + x)


def get_inputs():
    return [torch.randn(batch_size, hidden)]


def get_init_inputs():
    return [hidden]
