"""Scalar affine map: y = x * scale + shift."""

import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 16
dim = 262144
GPU_SHAPES = {'batch_size': 1024, 'dim': 65536}


class Model(nn.Module):
    """Scalar affine map: y = x * scale + shift."""

    def __init__(self, scale: float, shift: float):
        super().__init__()
        self.scale = scale
        self.shift = shift

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x * self.scale + self.shift


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return [1.5, -0.25]
