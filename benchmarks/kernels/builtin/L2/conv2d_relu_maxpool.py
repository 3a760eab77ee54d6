"""Conv2d 3x3 (padding 1), ReLU, then 2x2 max pooling."""

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
    """Conv2d 3x3 (padding 1), ReLU, then 2x2 max pooling."""

    def __init__(self, in_channels: int, out_channels: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, 3, padding=1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.max_pool2d(torch.relu(self.conv(x)), 2)


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels]
