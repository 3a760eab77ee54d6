"""RMSNorm with weight, then SiLU."""

import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 256
hidden = 4096
GPU_SHAPES = {'batch_size': 4096, 'hidden': 8192}


class Model(nn.Module):
    """RMSNorm with weight, then SiLU."""

    def __init__(self, hidden: int):
        super().__init__()
        self.weight = nn.Parameter(torch.rand(hidden) + 0.5)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + 1e-6) * self.weight
        return F.silu(y)


def get_inputs():
    return [torch.randn(batch_size, hidden)]


def get_init_inputs():
    return [hidden]
