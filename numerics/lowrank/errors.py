"""Relative component errors (QK, OV, MLP) of a compressed block against the original, on calibration traces."""

from __future__ import annotations

import torch
import torch.nn as nn
import torch.nn.functional as F

from numerics.lowrank.a3 import head_moments, ov_error, qk_error
from numerics.lowrank.heads import ov_products, qk_products
from numerics.lowrank.whiten import second_moment


@torch.no_grad()
def component_errors(original: nn.Module, compressed: nn.Module, trace: dict) -> dict[str, float]:
    """QK: whitened score error; OV: error on attention-weighted inputs; MLP: output error; each relative."""
    inputs = trace["attn_in"].flatten(0, 1)
    moment = second_moment(inputs)
    zero_qk = [torch.zeros_like(m) for m in qk_products(original)]
    qk = sum(qk_error(m, a, moment) for m, a in zip(qk_products(original), qk_products(compressed)))
    qk_norm = sum(qk_error(m, z, moment) for m, z in zip(qk_products(original), zero_qk))
    moments = head_moments(trace["probs"], trace["attn_in"])
    ov_pairs = list(zip(ov_products(original), ov_products(compressed), moments))
    ov = sum(ov_error(m, a, s) for m, a, s in ov_pairs)
    ov_norm = sum(ov_error(m, torch.zeros_like(m), s) for m, _, s in ov_pairs)
    mlp_in = trace["mlp_in"].flatten(0, 1)
    reference = original.down(F.gelu(original.up(mlp_in)))
    approx = compressed.down(F.gelu(compressed.up(mlp_in)))
    return {"qk": (qk / qk_norm) ** 0.5, "ov": (ov / ov_norm) ** 0.5,
            "mlp": ((approx - reference).norm() / reference.norm()).item()}
