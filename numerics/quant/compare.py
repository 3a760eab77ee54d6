"""TwinQuant against RTN (group 64/128), SVD + RTN and Hadamard rotation + RTN: output error and perplexity."""

from __future__ import annotations

import copy

import torch

from numerics.fixture.corpus import calibration_tokens, validation_windows
from numerics.fixture.evaluate import perplexity
from numerics.fixture.model import TinyLM
from numerics.quant.apply import METHODS, quantise_model
from numerics.quant.baselines import rotation_rtn, rtn, svd_rtn
from numerics.quant.twinquant import TwinQuantSettings, twinquant


def quant_table(model: TinyLM, groups=(128, 64), steps: int = 40, calibration: int = 32,
                windows: int | None = None, on_row=None) -> list[dict]:
    """Fixture perplexity, mean layer output error and stored bits for every method and group size."""
    tokens, valid = calibration_tokens(calibration), validation_windows(model.config.context, limit=windows)
    rows = [{"method": "fp32", "group": "-", "perplexity": round(perplexity(model, valid), 4)}]
    for group in groups:
        for method in METHODS:
            quantised = copy.deepcopy(model)
            layers = quantise_model(quantised, method, tokens, TwinQuantSettings(group=group, steps=steps))
            rows.append({"method": method, "group": group, "perplexity": round(perplexity(quantised, valid), 4),
                         "mean_output_error": round(sum(r["output_error"] for r in layers) / len(layers), 5),
                         "bits_per_weight": round(sum(r["bits_per_weight"] for r in layers) / len(layers), 3)})
            if on_row is not None:
                on_row(rows[-1])
    return rows


def heavy_tailed_layer(size: int = 128, outliers: int = 4, seed: int = 0) -> tuple[torch.Tensor, torch.Tensor]:
    """Student-t(3) weights with outlier input channels, and inputs with the same outlier channels."""
    generator = torch.Generator().manual_seed(seed)
    weight = torch.distributions.StudentT(3.0).sample((size, size)).double() * 0.05
    weight[:, :outliers] *= 8
    inputs = torch.randn(2048, size, generator=generator, dtype=torch.float64)
    inputs[:, :outliers] *= 10
    return weight, inputs


def heavy_tailed_rows(group: int = 64, rank: int = 8, steps: int = 40) -> list[dict]:
    """Relative output error of each method on the synthetic heavy-tailed layer."""
    torch.manual_seed(0)
    weight, inputs = heavy_tailed_layer()
    reference = inputs @ weight.T

    def error(approx: torch.Tensor) -> float:
        return round(((inputs @ approx.T - reference).norm() / reference.norm()).item(), 5)

    fit = twinquant(weight, inputs, TwinQuantSettings(rank=rank, group=group, steps=steps))
    return [{"layer": "heavy-tailed 128x128", "method": name, "group": group, "output_error": value}
            for name, value in (("rtn", error(rtn(weight, 4, group))), ("svd_rtn", error(svd_rtn(weight, rank, 4, group))),
                                ("rotation_rtn", error(rotation_rtn(weight, 4, group))),
                                ("twinquant", error(fit.weight)))]
