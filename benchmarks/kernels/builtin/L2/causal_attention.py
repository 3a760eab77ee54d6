"""Causal scaled dot-product attention with an upper-triangular mask."""

import torch
import torch.nn as nn
import torch.nn.functional as F

batch_size = 4
heads = 8
seq_len = 256
head_dim = 64
GPU_SHAPES = {'batch_size': 16, 'heads': 16, 'seq_len': 2048, 'head_dim': 128}


class Model(nn.Module):
    """Causal scaled dot-product attention with an upper-triangular mask."""

    def __init__(self):
        super().__init__()

    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        n = q.shape[-2]
        scores = torch.matmul(q, k.transpose(-2, -1)) / (q.shape[-1] ** 0.5)
        mask = torch.triu(torch.ones(n, n, dtype=torch.bool), diagonal=1).to(q.device)
        scores = scores.masked_fill(mask, float("-inf"))
        return torch.matmul(torch.softmax(scores, dim=-1), v)


def get_inputs():
    return [torch.randn(batch_size, heads, seq_len, head_dim) for _ in range(3)]


def get_init_inputs():
    return []
