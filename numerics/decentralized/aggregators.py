"""Robust neighbourhood aggregators of the form x_i + Σ_j w_ij ρ(m_j − m_i).

With nothing trimmed or clipped they reduce exactly to the linear gossip step W m, so an
algorithm keeps its exactness when no node misbehaves.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

Aggregator = Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]


def mean(own: np.ndarray, differences: np.ndarray, weights: np.ndarray) -> np.ndarray:
    """Plain weighted gossip: own + Σ w_j (m_j − own)."""
    return own + weights @ differences


def trimmed(trim: int) -> Aggregator:
    """Coordinate-wise trimming: per coordinate, drop the ``trim`` largest and smallest differences."""

    def aggregate(own: np.ndarray, differences: np.ndarray, weights: np.ndarray) -> np.ndarray:
        count = differences.shape[0]
        if count <= 2 * trim:
            return own.copy()
        ranks = np.argsort(np.argsort(differences, axis=0), axis=0)
        keep = (ranks >= trim) & (ranks < count - trim)
        return own + np.einsum("j,jd->d", weights, differences * keep)

    return aggregate


def clipped(trim: int) -> Aggregator:
    """Clipped gossip: clip each difference at the norm of the (count − trim)-th smallest one."""

    def aggregate(own: np.ndarray, differences: np.ndarray, weights: np.ndarray) -> np.ndarray:
        norms = np.linalg.norm(differences, axis=1)
        if trim >= len(norms):
            return own.copy()
        threshold = np.sort(norms)[len(norms) - 1 - trim]
        scale = np.minimum(1.0, threshold / np.maximum(norms, 1e-300))
        return own + weights @ (differences * scale[:, None])

    return aggregate


def make_aggregator(name: str, trim: int) -> Aggregator:
    """``mean``, ``trimmed`` (coordinate-wise trimmed gossip) or ``clipped`` (clipped gossip)."""
    if name == "mean":
        return mean
    if name == "trimmed":
        return trimmed(trim)
    if name == "clipped":
        return clipped(trim)
    raise ValueError(f"unknown aggregator {name!r}; use mean, trimmed or clipped")
