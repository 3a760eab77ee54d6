"""Conv2d 3x3 (padding 1), BatchNorm2d in inference mode, ReLU."""

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
    """Conv2d 3x3 (padding 1), BatchNorm2d in inference mode, ReLU."""

    def __init__(self, in_channels: int, out_channels: int):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, 3, padding=1)
        self.bn = nn.BatchNorm2d(out_channels)
        self.bn.running_mean.uniform_(-0.5, 0.5)
        self.bn.running_var.uniform_(0.5, 1.5)
        self.eval()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(self.bn(self.conv(x)))


def get_inputs():
    return [torch.randn(batch_size, in_channels, height, width)]


def get_init_inputs():
    return [in_channels, out_channels]
