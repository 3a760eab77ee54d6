"""Round-to-nearest asymmetric integer quantisation in groups along the input dimension."""

from __future__ import annotations

import torch


def group_count_bits(shape: tuple[int, int], bits: int, group: int) -> float:
    """Average stored bits per weight: the integer plus an fp16 scale and fp16 zero per group."""
    return bits + 32 / min(group, shape[1])


def _round(values: torch.Tensor, straight_through: bool) -> torch.Tensor:
    if straight_through:
        return values + (torch.round(values) - values).detach()
    return torch.round(values)


def fake_quantise(weight: torch.Tensor, bits: int = 4, group: int = 128, straight_through: bool = False
                  ) -> torch.Tensor:
    """Quantise and dequantise ``weight`` (out, in) per group of ``group`` input columns.

    With ``straight_through`` only the rounding passes gradients unchanged (the STE); the group ranges,
    hence the step sizes, stay differentiable, so the error carries a gradient to the weights' shape.
    """
    out_features, in_features = weight.shape
    group = min(group, in_features)
    padded = -(-in_features // group) * group
    grouped = torch.nn.functional.pad(weight, (0, padded - in_features)).reshape(out_features, -1, group)
    low, high = grouped.amin(dim=-1, keepdim=True), grouped.amax(dim=-1, keepdim=True)
    levels = 2 ** bits - 1
    scale = ((high - low) / levels).clamp_min(1e-12)
    zero = _round(-low / scale, straight_through)
    codes = torch.clamp(_round(grouped / scale, straight_through) + zero, 0, levels)
    return ((codes - zero) * scale).reshape(out_features, padded)[:, :in_features]


def quantise_codes(weight: torch.Tensor, bits: int = 4, group: int = 128
                   ) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """Integer codes (uint8, one code per byte), scales and zeros (out, groups) of :func:`fake_quantise`."""
    out_features, in_features = weight.shape
    if in_features % group:
        raise ValueError(f"input width {in_features} is not a multiple of the group size {group}")
    grouped = weight.reshape(out_features, -1, group)
    low, high = grouped.amin(dim=-1), grouped.amax(dim=-1)
    scale = ((high - low) / (2 ** bits - 1)).clamp_min(1e-12)
    zero = torch.round(-low / scale)
    codes = torch.clamp(torch.round(grouped / scale[..., None]) + zero[..., None], 0, 2 ** bits - 1)
    return codes.reshape(out_features, in_features).to(torch.uint8), scale, zero
