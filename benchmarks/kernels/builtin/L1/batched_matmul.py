"""Batched matrix multiplication."""

import torch
import torch.nn as nn
import torch.nn.functional as F

batch = 32
M = 128
K = 256
N = 128
GPU_SHAPES = {'batch': 64, 'M': 512, 'K': 512, 'N': 512}


class Model(nn.Module):
    """Batched matrix multiplication."""

    def __init__(self):
        super().__init__()

    def forward(self, a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        return torch.bmm(a, b)


def get_inputs():
    return [torch.randn(batch, M, K), torch.randn(batch, K, N)]


def get_init_inputs():
    return []
