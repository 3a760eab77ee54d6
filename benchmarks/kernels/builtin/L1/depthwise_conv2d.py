"""Depthwise 2-D convolution, 3x3 kernel, padding 1."""

import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 8
channels = 64
height = 128
width = 128
GPU_SHAPES = {'batch_size': 32, 'channels': 128, 'height': 128, 'width': 128}


class Model(nn.Module):
    """Depthwise 2-D convolution, 3x3 kernel, padding 1."""

    def __init__(self, channels: int):
        super().__init__()
        self.conv = nn.Conv2d(channels, channels, 3, padding=1, groups=channels, bias=False)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.conv(x)


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [channels]
