"""Quantise every linear layer of a TinyLM in place with TwinQuant or a baseline; report errors and bits."""

from __future__ import annotations

from typing import Callable

import torch

from numerics.fixture.activations import linear_inputs, relative_output_error
from numerics.fixture.model import TinyLM
from numerics.quant.baselines import rotation_rtn, rtn, svd_rtn
from numerics.quant.rtn import group_count_bits
from numerics.quant.twinquant import TwinQuantSettings, twinquant, twinquant_bits

METHODS = ("twinquant", "rtn", "svd_rtn", "rotation_rtn")
CALIBRATION_ROWS = 1024


def _quantiser(method: str, settings: TwinQuantSettings) -> Callable[[torch.Tensor, torch.Tensor], torch.Tensor]:
    """(weight, inputs) -> dequantised weight for one method."""
    bits, group, rank = settings.bits, settings.group, settings.rank
    choices = {
        "twinquant": lambda w, x: twinquant(w, x, settings).weight,
        "rtn": lambda w, x: rtn(w, bits, group),
        "svd_rtn": lambda w, x: svd_rtn(w, rank, bits, group),
        "rotation_rtn": lambda w, x: rotation_rtn(w, bits, group, settings.seed),
    }
    if method not in choices:
        raise ValueError(f"unknown quantisation method {method!r}; choose from {', '.join(METHODS)}")
    return choices[method]


def stored_bits(method: str, shape: tuple[int, int], settings: TwinQuantSettings) -> float:
    """Bits per weight that the method stores for a layer of ``shape``."""
    if method in ("twinquant", "svd_rtn"):
        return twinquant_bits(shape, settings)
    return group_count_bits(shape, settings.bits, settings.group)


@torch.no_grad()
def quantise_model(model: TinyLM, method: str, calibration: torch.Tensor,
                   settings: TwinQuantSettings = TwinQuantSettings(), on_layer=None) -> list[dict]:
    """Replace every linear weight by its dequantised approximation (simulated quantisation)."""
    quantiser = _quantiser(method, settings)
    inputs = linear_inputs(model, calibration)
    rows = []
    for name, layer in model.linear_layers().items():
        original = layer.weight.detach().clone()
        sample = inputs[name][:CALIBRATION_ROWS]
        with torch.enable_grad():
            approx = quantiser(original, sample)
        layer.weight.copy_(approx.float())
        rows.append({"layer": name, "output_error": relative_output_error(inputs[name], original, layer.weight),
                     "bits_per_weight": round(stored_bits(method, tuple(original.shape), settings), 3)})
        if on_layer is not None:
            on_layer(rows[-1])
    return rows
