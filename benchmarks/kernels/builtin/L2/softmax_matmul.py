"""Row softmax followed by a matmul: softmax(S) @ V."""

import torch
import torch.nn as nn
import torch.nn.functional as F

M = 1024
K = 1024
N = 256
GPU_SHAPES = {'M': 8192, 'K': 8192, 'N': 1024}


class Model(nn.Module):
    """Row softmax followed by a matmul: softmax(S) @ V."""

    def __init__(self):
        super().__init__()

    def forward(self, s: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        return torch.matmul(torch.softmax(s, dim=-1), v)


def get_inputs():
    return [torch.randn(M, K), torch.randn(K, N)]


def get_init_inputs():
    return []
