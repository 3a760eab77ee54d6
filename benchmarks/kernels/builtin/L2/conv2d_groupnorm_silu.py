"""Conv2d 3x3 (padding 1), GroupNorm with 8 groups, SiLU."""

import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 8
in_channels = 16
out_channels = 32
height = 64
width = 64
GPU_SHAPES = {'batch_size': 32, 'in_channels': 64, 'out_channels': 128, 'height': 128, 'width': 128}


class Model(nn.Module):
    """Conv2d 3x3 (padding 1), GroupNorm with 8 groups, SiLU."""

    def __init__(self, in_channels: int, out_channels: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, 3, padding=1)
        self.gn = nn.GroupNorm(8, out_channels)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.silu(self.gn(self.conv(x)))


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels]
