"""Matrix-vector product y = A @ x."""

import torch
import torch.nn as nn
import torch.nn.functional as F

M = 4096
K = 4096
GPU_SHAPES = {'M': 8192, 'K': 8192}


class Model(nn.Module):
    """Matrix-vector product y = A @ x."""

    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, x: torch.Tensor) -> torch.Tensor:
        return torch.matmul(a, x)


def get_inputs():
    return [torch.randn(M, K), torch.randn(K)]


def get_init_inputs():
    return []
