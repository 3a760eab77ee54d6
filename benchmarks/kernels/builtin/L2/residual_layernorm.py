"""Residual add followed by LayerNorm: LN(x + r)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 256
hidden = 4096
GPU_SHAPES = {'batch_size': 4096, 'hidden': 8192}


class Model(nn.Module):
    """Residual add followed by LayerNorm: LN(x + r)."""

    def __init__(self, hidden: int):
        super().__init__()
        self.norm = nn.LayerNorm(hidden)

    def forward(self, x: torch.Tensor, r: torch.Tensor) -> torch.Tensor:
        return self.norm(x + r)


def get_inputs():
    return [torch.randn(batch_size, hidden), torch.randn(batch_size, hidden)]


def get_init_inputs():
    return [hidden]
