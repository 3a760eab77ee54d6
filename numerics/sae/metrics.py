"""Diagnostics for choosing L0: the n-th decoder projection, decoder similarity, feature recovery."""

from __future__ import annotations

import torch

from numerics.sae.model import BatchTopKSAE


@torch.no_grad()
def nth_decoder_projection(sae: BatchTopKSAE, x: torch.Tensor, n: int | None = None) -> float:
    """Mean over inputs of the n-th largest projection of (x − b_d) on the unit decoder rows.

    Past the n-th place the latents should be inactive for the input. Latents that mix correlated
    features still project strongly there, so the score stays high while L0 is too low and falls to
    its floor at the right L0. ``n`` must exceed the L0 range of interest; it defaults to 30% of the width.
    """
    projections = (x - sae.decoder_bias) @ sae.decoder.T
    n = n or max(1, round(0.3 * sae.decoder.shape[0]))
    return float(projections.sort(dim=1, descending=True).values[:, n - 1].mean())


@torch.no_grad()
def decoder_similarity(sae: BatchTopKSAE) -> float:
    """Mean absolute cosine between distinct decoder rows (high when latents are mixtures)."""
    rows = sae.decoder / sae.decoder.norm(dim=1, keepdim=True)
    gram = (rows @ rows.T).abs()
    width = gram.shape[0]
    return float((gram.sum() - gram.diagonal().sum()) / (width * (width - 1)))


@torch.no_grad()
def feature_recovery(sae: BatchTopKSAE, directions: torch.Tensor) -> float:
    """Mean over true features of the best cosine similarity with any decoder row."""
    rows = sae.decoder / sae.decoder.norm(dim=1, keepdim=True)
    return float((directions @ rows.T).max(dim=1).values.mean())
