"""SiLU (swish) activation: x * sigmoid(x)."""

import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 16
dim = 262144
GPU_SHAPES = {'batch_size': 1024, 'dim': 65536}


class Model(nn.Module):
    """SiLU (swish) activation: x * sigmoid(x)."""

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.silu(x)


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
