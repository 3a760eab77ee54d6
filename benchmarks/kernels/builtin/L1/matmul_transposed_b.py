"""Matrix multiplication with B transposed: C = A @ B.T."""

import torch
import torch.nn as nn
import torch.nn.functional as F

M = 1024
K = 1024
N = 1024
GPU_SHAPES = {'M': 4096, 'K': 4096, 'N': 4096}


class Model(nn.Module):
    """Matrix multiplication with B transposed: C = A @ B.T."""

    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.matmul(a, b.T)


def get_inputs():
    return [torch.randn(M, K), torch.randn(N, K)]


def get_init_inputs():
    return []
