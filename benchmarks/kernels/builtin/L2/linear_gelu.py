"""Linear layer (matmul + bias) followed by GELU."""

import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 512
in_features = 1024
out_features = 1024
GPU_SHAPES = {'batch_size': 8192, 'in_features': 4096, 'out_features': 4096}


class Model(nn.Module):
    """Linear layer (matmul + bias) followed by GELU."""

    def __init__(self, in_features: int, out_features: int):
        super().__init__()
        self.linear = nn.Linear(in_features, out_features)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = self.linear(x)
        return F.gelu(y)


def get_inputs():
    return [torch.randn(batch_size, in_features)]


def get_init_inputs():
    return [in_features, out_features]
