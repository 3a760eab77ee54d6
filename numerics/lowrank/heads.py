"""Per-head views of a block's weights in the math convention of :mod:`numerics.lowrank.a3`."""

from __future__ import annotations

import torch
import torch.nn as nn


def head_rows(weight: torch.Tensor, heads: int) -> list[torch.Tensor]:
    """Split an (heads * width, d) projection into each head's (d, width) map."""
    return [chunk.T for chunk in weight.chunk(heads, dim=0)]


def qk_products(block: nn.Module) -> list[torch.Tensor]:
    """M_h = W_Q^h W_K^h^T (d x d) for every head."""
    heads = block.n_heads
    return [q.double() @ k.double().T
            for q, k in zip(head_rows(block.q.weight, heads), head_rows(block.k.weight, heads))]


def ov_products(block: nn.Module) -> list[torch.Tensor]:
    """M_h = W_V^h W_O^h (d x d) for every head."""
    heads = block.n_heads
    outputs = [chunk.T for chunk in block.o.weight.chunk(heads, dim=1)]
    return [v.double() @ o.double() for v, o in zip(head_rows(block.v.weight, heads), outputs)]


def new_linear(weight: torch.Tensor) -> nn.Linear:
    """A bias-free ``nn.Linear`` holding ``weight`` (out, in) in float32."""
    layer = nn.Linear(weight.shape[1], weight.shape[0], bias=False)
    with torch.no_grad():
        layer.weight.copy_(weight.float())
    return layer
