"""Siamese GNN encoders on dense adjacency: GCN (isotropic), GIN (isotropic, injective sum), GAT (anisotropic)."""

from __future__ import annotations

import torch
from torch import nn


def normalised_adjacency(adjacency: torch.Tensor) -> torch.Tensor:
    """D^-1/2 (A + I) D^-1/2."""
    with_self = adjacency + torch.eye(len(adjacency))
    scale = with_self.sum(dim=1).rsqrt()
    return scale[:, None] * with_self * scale[None, :]


class GCNLayer(nn.Module):
    def __init__(self, inputs: int, outputs: int):
        super().__init__()
        self.linear = nn.Linear(inputs, outputs)

    def forward(self, h: torch.Tensor, adjacency: torch.Tensor) -> torch.Tensor:
        return normalised_adjacency(adjacency) @ self.linear(h)


class GINLayer(nn.Module):
    def __init__(self, inputs: int, outputs: int):
        super().__init__()
        self.eps = nn.Parameter(torch.zeros(1))
        self.mlp = nn.Sequential(nn.Linear(inputs, outputs), nn.ReLU(), nn.Linear(outputs, outputs))

    def forward(self, h: torch.Tensor, adjacency: torch.Tensor) -> torch.Tensor:
        return self.mlp((1 + self.eps) * h + adjacency @ h)


class GATLayer(nn.Module):
    """Multi-head attention over neighbours (and self), heads concatenated."""

    def __init__(self, inputs: int, outputs: int, heads: int = 4):
        super().__init__()
        assert outputs % heads == 0, "outputs must be divisible by heads"
        self.heads, self.size = heads, outputs // heads
        self.linear = nn.Linear(inputs, outputs, bias=False)
        self.attend_source = nn.Parameter(torch.randn(heads, self.size) * 0.1)
        self.attend_target = nn.Parameter(torch.randn(heads, self.size) * 0.1)

    def forward(self, h: torch.Tensor, adjacency: torch.Tensor) -> torch.Tensor:
        n = len(h)
        projected = self.linear(h).view(n, self.heads, self.size)
        source = (projected * self.attend_source).sum(-1)  # (n, heads)
        target = (projected * self.attend_target).sum(-1)
        scores = nn.functional.leaky_relu(source[:, None, :] + target[None, :, :], 0.2)  # (n, n, heads)
        mask = (adjacency + torch.eye(n)) > 0
        scores = scores.masked_fill(~mask[:, :, None], float("-inf"))
        weights = torch.softmax(scores, dim=1)
        return torch.einsum("ijh,jhs->ihs", weights, projected).reshape(n, -1)


LAYERS = {"gcn": GCNLayer, "gin": GINLayer, "gat": GATLayer}


class SiameseEncoder(nn.Module):
    """Stacked layers with ReLU; the output concatenates every layer's embedding (jumping knowledge)."""

    def __init__(self, kind: str, inputs: int, hidden: int = 64, layers: int = 3):
        super().__init__()
        if kind not in LAYERS:
            raise ValueError(f"unknown GNN {kind!r}; choose from {sorted(LAYERS)}")
        sizes = [inputs] + [hidden] * layers
        self.layers = nn.ModuleList(LAYERS[kind](a, b) for a, b in zip(sizes, sizes[1:]))
        self.norms = nn.ModuleList(nn.LayerNorm(hidden) for _ in range(layers))

    def forward(self, h: torch.Tensor, adjacency: torch.Tensor) -> torch.Tensor:
        outputs = [h]
        for layer, norm in zip(self.layers, self.norms):
            h = torch.relu(norm(layer(h, adjacency)))
            outputs.append(h)
        return nn.functional.normalize(torch.cat(outputs, dim=1), dim=1)
