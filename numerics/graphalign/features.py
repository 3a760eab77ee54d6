"""Permutation-equivariant node features: degree and random-walk return probabilities."""

from __future__ import annotations

import numpy as np


def structural_features(adjacency: np.ndarray, walks: int = 8) -> np.ndarray:
    """(n, walks + 2): log degree, mean neighbour degree, and diag(P^k) for k = 2..walks+1."""
    degree = adjacency.sum(axis=1)
    safe = np.maximum(degree, 1.0)
    transition = adjacency / safe[:, None]
    columns = [np.log1p(degree), (adjacency @ degree) / safe / max(degree.mean(), 1.0)]
    power = transition.copy()
    for _ in range(walks):
        power = power @ transition
        columns.append(np.diag(power) * len(adjacency) / max(degree.mean(), 1.0))
    features = np.stack(columns, axis=1).astype(np.float32)
    return (features - features.mean(axis=0)) / (features.std(axis=0) + 1e-6)
