"""2-D average pooling, kernel 3, stride 1, padding 1."""

import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 8
channels = 32
height = 128
width = 128
GPU_SHAPES = {'batch_size': 32, 'channels': 64, 'height': 128, 'width': 128}


class Model(nn.Module):
    """2-D average pooling, kernel 3, stride 1, padding 1."""

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.avg_pool2d(x, kernel_size=3, stride=1, padding=1)


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return []
