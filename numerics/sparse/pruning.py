"""Unstructured pruning of a TinyLM's linear layers: magnitude and Wanda (|W| x ||X||, per output row)."""

from __future__ import annotations

import torch

from numerics.fixture.activations import linear_inputs, relative_output_error
from numerics.fixture.model import TinyLM

METHODS = ("magnitude", "wanda")


def magnitude_mask(weight: torch.Tensor, sparsity: float) -> torch.Tensor:
    """Keep the largest |W| over the whole matrix; True = kept."""
    drop = int(round(sparsity * weight.numel()))
    if drop == 0:
        return torch.ones_like(weight, dtype=torch.bool)
    threshold = weight.abs().flatten().kthvalue(drop).values
    return weight.abs() > threshold


def wanda_mask(weight: torch.Tensor, input_norms: torch.Tensor, sparsity: float) -> torch.Tensor:
    """Keep, within each output row, the largest |W_ij| * ||X_j||; True = kept."""
    scores = weight.abs() * input_norms[None, :]
    drop = int(round(sparsity * weight.shape[1]))
    mask = torch.ones_like(weight, dtype=torch.bool)
    if drop:
        mask.scatter_(1, scores.argsort(dim=1)[:, :drop], False)
    return mask


def prune_weight(weight: torch.Tensor, sparsity: float, method: str, inputs: torch.Tensor | None) -> torch.Tensor:
    """The pruned copy of one ``nn.Linear`` weight."""
    if method == "magnitude":
        mask = magnitude_mask(weight, sparsity)
    elif method == "wanda":
        if inputs is None:
            raise ValueError("Wanda pruning needs calibration inputs")
        mask = wanda_mask(weight, inputs.norm(dim=0), sparsity)
    else:
        raise ValueError(f"unknown pruning method {method!r}; choose from {', '.join(METHODS)}")
    return weight * mask


@torch.no_grad()
def prune_model(model: TinyLM, sparsity: float, method: str, calibration: torch.Tensor) -> list[dict]:
    """Prune every linear layer in place; per layer the achieved sparsity and relative output error."""
    if not 0 <= sparsity < 1:
        raise ValueError(f"sparsity must lie in [0, 1); got {sparsity}")
    inputs = linear_inputs(model, calibration)
    rows = []
    for name, layer in model.linear_layers().items():
        original = layer.weight.detach().clone()
        layer.weight.copy_(prune_weight(original, sparsity, method, inputs[name]))
        rows.append({"layer": name, "sparsity": round((layer.weight == 0).float().mean().item(), 4),
                     "output_error": relative_output_error(inputs[name], original, layer.weight)})
    return rows
