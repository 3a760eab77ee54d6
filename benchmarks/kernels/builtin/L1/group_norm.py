"""GroupNorm with 8 groups and learnable affine parameters."""

import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 8
channels = 32
height = 128
width = 128
GPU_SHAPES = {'batch_size': 32, 'channels': 64, 'height': 128, 'width': 128}


class Model(nn.Module):
    """GroupNorm with 8 groups and learnable affine parameters."""

    def __init__(self, channels: int):
        super().__init__()
        self.gn = nn.GroupNorm(8, channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.gn(x)


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [channels]
