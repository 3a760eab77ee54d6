"""2-D max pooling, kernel 2, stride 2."""

import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 8
channels = 32
height = 128
width = 128
GPU_SHAPES = {'batch_size': 32, 'channels': 64, 'height': 128, 'width': 128}


class Model(nn.Module):
    """2-D max pooling, kernel 2, stride 2."""

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return F.max_pool2d(x, kernel_size=2, stride=2)


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return []
