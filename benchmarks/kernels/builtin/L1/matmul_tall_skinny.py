"""Tall-skinny product: (M x K) @ (K x N) with small K."""

import torch
import torch.nn as nn
import torch.nn.functional as F

M = 16384
K = 64
N = 256
GPU_SHAPES = {'M': 65536, 'K': 64, 'N': 1024}


class Model(nn.Module):
    """Tall-skinny product: (M x K) @ (K x N) with small K."""

    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.matmul(a, b)


def get_inputs():
    return [torch.randn(M, K), torch.randn(K, N)]


def get_init_inputs():
    return []
