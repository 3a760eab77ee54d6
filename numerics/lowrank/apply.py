"""Low-rank compression of a whole TinyLM at a parameter ratio: A^3 and the per-matrix SVD baselines."""

from __future__ import annotations

import copy
import math

import torch

from numerics.fixture.activations import INPUT_OF, block_traces
from numerics.fixture.model import TinyLM
from numerics.lowrank.a3 import head_moments, reduce_ov, reduce_qk, refit_down, select_neurons
from numerics.lowrank.errors import component_errors
from numerics.lowrank.heads import head_rows, new_linear
from numerics.lowrank.whiten import second_moment, sqrt_and_inverse, truncated_svd

METHODS = ("a3", "svd", "whitened_svd")


def _width(ratio: float, full: int) -> int:
    return max(1, min(full, round(ratio * full)))


def _a3_attention(block, trace: dict, ratio: float) -> None:
    heads = block.n_heads
    moment = second_moment(trace["attn_in"].flatten(0, 1))
    rank_qk = _width(ratio, block.q.out_features // heads)
    qk = [reduce_qk(q, k, moment, rank_qk) for q, k in
          zip(head_rows(block.q.weight, heads), head_rows(block.k.weight, heads))]
    block.q = new_linear(torch.cat([f.left.T for f in qk]))
    block.k = new_linear(torch.cat([f.right for f in qk]))
    rank_v = _width(ratio, block.v.out_features // heads)
    outputs = [chunk.T for chunk in block.o.weight.chunk(heads, dim=1)]
    ov = [reduce_ov(v, o, s, rank_v) for v, o, s in
          zip(head_rows(block.v.weight, heads), outputs, head_moments(trace["probs"], trace["attn_in"]))]
    block.v = new_linear(torch.cat([f.left.T for f in ov]))
    block.o = new_linear(torch.cat([f.right for f in ov]).T)


def _a3_mlp(block, trace: dict, ratio: float) -> None:
    hidden = trace["mlp_hidden"].flatten(0, 1)
    w_down = block.down.weight.T
    kept = select_neurons(hidden, w_down, _width(ratio, block.up.out_features))
    block.down = new_linear(refit_down(hidden, w_down, kept).T)
    block.up = new_linear(block.up.weight[kept])


def per_matrix_rank(ratio: float, out_features: int, in_features: int) -> int:
    """Smallest rank whose two factors hold at least ``ratio`` of the matrix's parameters (never fewer than
    A^3 keeps, so the baselines are not short-changed by rounding)."""
    return max(1, math.ceil(ratio * out_features * in_features / (out_features + in_features) - 1e-9))


def svd_weight(weight: torch.Tensor, rank: int, inputs: torch.Tensor | None) -> torch.Tensor:
    """Rank-``rank`` approximation: plain SVD, or whitened by the input's second moment (SVD-LLM)."""
    if inputs is None:
        u, s, v = truncated_svd(weight.double(), rank)
        return (u * s) @ v.T
    root, inverse_root = sqrt_and_inverse(second_moment(inputs))
    u, s, v = truncated_svd(weight.double() @ root, rank)
    return (u * s) @ (v.T @ inverse_root)


def _svd_block(block, trace: dict, ratio: float, whitened: bool) -> None:
    for name, source in INPUT_OF.items():
        layer = getattr(block, name)
        rank = per_matrix_rank(ratio, layer.out_features, layer.in_features)
        inputs = trace[source].flatten(0, 1) if whitened else None
        with torch.no_grad():
            layer.weight.copy_(svd_weight(layer.weight, rank, inputs).float())


@torch.no_grad()
def compress_lowrank(model: TinyLM, ratio: float, method: str, calibration: torch.Tensor) -> list[dict]:
    """Compress every block in place keeping ``ratio`` of its attention and MLP parameters.

    A^3 shrinks the layers; the baselines keep dense shapes holding the rank-k product (their stored
    form is two factors with the same parameter count). Returns component errors per block.
    """
    if method not in METHODS:
        raise ValueError(f"unknown low-rank method {method!r}; choose from {', '.join(METHODS)}")
    if not 0 < ratio <= 1:
        raise ValueError(f"ratio must lie in (0, 1]; got {ratio}")
    traces = block_traces(model, calibration)
    rows = []
    for index, (block, trace) in enumerate(zip(model.blocks, traces)):
        original = copy.deepcopy(block)
        if method == "a3":
            _a3_attention(block, trace, ratio)
            _a3_mlp(block, trace, ratio)
        else:
            _svd_block(block, trace, ratio, whitened=method == "whitened_svd")
        rows.append({"block": index, **component_errors(original, block, trace)})
    model.sync_shapes()
    return rows
