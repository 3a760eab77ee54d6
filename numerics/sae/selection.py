"""Choosing L0: sweep k, score each SAE by the n-th decoder projection, take the elbow."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence

import torch

from numerics.sae.metrics import decoder_similarity, feature_recovery, nth_decoder_projection
from numerics.sae.train import train_sae


@dataclass
class SweepPoint:
    """One trained SAE of the sweep and its diagnostics."""

    k: int
    projection: float
    similarity: float
    mse: float
    recovery: float | None = None


def elbow(points: Sequence[SweepPoint], tolerance: float = 0.1) -> int:
    """The smallest k whose projection score is within ``tolerance`` × range of the sweep's minimum.

    Too low an L0 mixes correlated features and keeps the score high; past the right L0 the
    score sits at its floor, so the first k that reaches the floor is the recommendation.
    """
    scores = [p.projection for p in points]
    floor, span = min(scores), max(scores) - min(scores)
    return next(p.k for p in points if p.projection <= floor + tolerance * span)


def sweep_warning(ks: Sequence[int], chosen: int, true_l0: float | None = None) -> str | None:
    """Why the elbow of a sweep over ``ks`` cannot be trusted, or None: the sweep stops below the true L0
    (when it is known), or the elbow is the sweep's last k (the floor may lie further right)."""
    last = max(ks)
    if true_l0 is not None and last < true_l0:
        return (f"the sweep stops at k={last}, below the true L0 {true_l0:.1f}: the elbow lies beyond it; "
                f"raise --k-max above {true_l0:.0f}")
    if chosen == last:
        return f"the elbow is the sweep's last k={last}: the floor may lie beyond it; raise --k-max"
    return None


def sweep(sample: Callable[[int], torch.Tensor], held_out: torch.Tensor, ks: Sequence[int], *, width: int,
          steps: int = 1500, directions: torch.Tensor | None = None, seed: int = 0,
          on_point: Callable[[SweepPoint], None] | None = None) -> list[SweepPoint]:
    """Train one SAE per k and score it on ``held_out``; ``directions`` (if known) gives feature recovery."""
    points = []
    for k in ks:
        sae = train_sae(sample, held_out.shape[1], width, k, steps=steps, seed=seed)
        with torch.no_grad():
            mse = float((sae(held_out)[0] - held_out).pow(2).sum(dim=1).mean())
        point = SweepPoint(k, nth_decoder_projection(sae, held_out), decoder_similarity(sae), mse,
                           feature_recovery(sae, directions) if directions is not None else None)
        points.append(point)
        if on_point:
            on_point(point)
    return points


def recommend_l0(activations: torch.Tensor, *, ks: Sequence[int] | None = None, width: int | None = None,
                 steps: int = 1500, seed: int = 0) -> tuple[int, list[SweepPoint]]:
    """Recommend an L0 for SAEs on ``activations`` (samples, dim): train on 80%, score on the rest."""
    activations = activations.float()
    generator = torch.Generator().manual_seed(seed)
    order = torch.randperm(len(activations), generator=generator)
    split = int(0.8 * len(activations))
    train, held_out = activations[order[:split]], activations[order[split:]]
    dim = activations.shape[1]
    width = width or dim // 2

    def sample(count: int) -> torch.Tensor:
        return train[torch.randint(len(train), (count,), generator=generator)]

    points = sweep(sample, held_out, ks or range(1, min(width, 32) + 1, 2), width=width, steps=steps, seed=seed)
    return elbow(points), points
