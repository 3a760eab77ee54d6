"""Scaled dot-product attention: softmax(Q K^T / sqrt(d)) V."""

import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 4
heads = 8
seq_len = 256
head_dim = 64
GPU_SHAPES = {'batch_size': 16, 'heads': 16, 'seq_len': 2048, 'head_dim': 128}


class Model(nn.Module):
    """Scaled dot-product attention: softmax(Q K^T / sqrt(d)) V."""

    def __init__(self):
        super().__init__()

    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        scores = torch.matmul(q, k.transpose(-2, -1)) / (q.shape[-1] ** 0.5)
        return torch.matmul(torch.softmax(scores, dim=-1), v)


def get_inputs():
    return [torch.randn(batch_size, heads, seq_len, head_dim) for _ in range(3)]


def get_init_inputs():
    return []
