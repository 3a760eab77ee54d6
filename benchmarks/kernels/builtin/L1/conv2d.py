"""2-D convolution, 3x3 kernel, stride 1, padding 1, with bias."""

import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 8
in_channels = 16
out_channels = 32
height = 64
width = 64
kernel = 3
GPU_SHAPES = {'batch_size': 32, 'in_channels': 64, 'out_channels': 128, 'height': 128, 'width': 128, 'kernel': 3}


class Model(nn.Module):
    """2-D convolution, 3x3 kernel, stride 1, padding 1, with bias."""

    def __init__(self, in_channels: int, out_channels: int, kernel: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels, kernel]
