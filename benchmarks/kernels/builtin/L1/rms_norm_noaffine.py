"""RMS normalisation over the last dimension, eps 1e-6, no weight."""

import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 64
dim = 65536
GPU_SHAPES = {'batch_size': 4096, 'dim': 16384}


class Model(nn.Module):
    """RMS normalisation over the last dimension, eps 1e-6, no weight."""

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * torch.rsqrt(torch.mean(x * x, dim=1, keepdim=True) + 1e-6)


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
