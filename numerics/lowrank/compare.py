"""A^3 against per-matrix SVD and whitened SVD at equal parameter budgets on the fixture: perplexity table."""

from __future__ import annotations

import copy

from numerics.fixture.corpus import calibration_tokens, validation_windows
from numerics.fixture.evaluate import perplexity
from numerics.fixture.model import TinyLM
from numerics.lowrank.apply import METHODS, compress_lowrank


def linear_parameters(model: TinyLM, method: str, ratio: float) -> int:
    """Stored parameters of the linear layers: A^3's shrunk layers, the baselines' two factors per matrix."""
    if method == "a3":
        return sum(layer.weight.numel() for layer in model.linear_layers().values())
    from numerics.lowrank.apply import per_matrix_rank

    return sum(per_matrix_rank(ratio, *layer.weight.shape) * sum(layer.weight.shape)
               for layer in model.linear_layers().values())


def lowrank_table(model: TinyLM, ratios=(0.8, 0.6, 0.5), calibration: int = 32, windows: int | None = None,
                  on_row=None) -> list[dict]:
    """Perplexity and mean component errors of every method at every ratio."""
    tokens, valid = calibration_tokens(calibration), validation_windows(model.config.context, limit=windows)
    rows = [{"method": "original", "ratio": 1.0, "perplexity": round(perplexity(model, valid), 4),
             "linear_params": sum(layer.weight.numel() for layer in model.linear_layers().values())}]
    for ratio in ratios:
        for method in METHODS:
            compressed = copy.deepcopy(model)
            errors = compress_lowrank(compressed, ratio, method, tokens)
            rows.append({"method": method, "ratio": ratio, "perplexity": round(perplexity(compressed, valid), 4),
                         "linear_params": linear_parameters(compressed, method, ratio),
                         **{part: round(sum(e[part] for e in errors) / len(errors), 4)
                            for part in ("qk", "ov", "mlp")}})
            if on_row is not None:
                on_row(rows[-1])
    return rows
