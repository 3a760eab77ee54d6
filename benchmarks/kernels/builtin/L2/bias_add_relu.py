"""Per-channel bias add followed by ReLU."""

import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 64
features = 65536
GPU_SHAPES = {'batch_size': 1024, 'features': 65536}


class Model(nn.Module):
    """Per-channel bias add followed by ReLU."""

    def __init__(self, features: int):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(features))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x + self.bias)


def get_inputs():
    return [torch.randn(batch_size, features)]


def get_init_inputs():
    return [features]
