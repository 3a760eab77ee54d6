"""Two-layer MLP: Linear, ReLU, Linear."""

import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 256
in_features = 512
hidden = 1024
out_features = 512
GPU_SHAPES = {'batch_size': 8192, 'in_features': 2048, 'hidden': 8192, 'out_features': 2048}


class Model(nn.Module):
    """Two-layer MLP: Linear, ReLU, Linear."""

    def __init__(self, in_features: int, hidden: int, out_features: int):
        super().__init__()
        self.fc1 = nn.Linear(in_features, hidden)
        self.fc2 = nn.Linear(hidden, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(torch.relu(self.fc1(x)))


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, hidden, out_features]
