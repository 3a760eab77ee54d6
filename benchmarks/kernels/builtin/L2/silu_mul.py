"""Gated activation: silu(a) * b (the SwiGLU gate)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 16
dim = 262144
GPU_SHAPES = {'batch_size': 1024, 'dim': 65536}


class Model(nn.Module):
    """Gated activation: silu(a) * b (the SwiGLU gate)."""

    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return F.silu(a) * b


def get_inputs():
    return [torch.randn(batch_size, dim), torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
