"""Training by row-softmax cross-entropy on H1 H2^T; evaluation by Hungarian assignment; a spectral baseline."""

from __future__ import annotations

from typing import Sequence

import numpy as np
import torch
from scipy.optimize import linear_sum_assignment

from numerics.graphalign.data import AlignmentPair, make_pairs
from numerics.graphalign.features import structural_features
from numerics.graphalign.models import SiameseEncoder


def _tensors(pair: AlignmentPair) -> tuple[torch.Tensor, ...]:
    return (torch.from_numpy(structural_features(pair.source)), torch.from_numpy(pair.source),
            torch.from_numpy(structural_features(pair.copy)), torch.from_numpy(pair.copy),
            torch.from_numpy(pair.target).long())


def similarity(model: SiameseEncoder, pair: AlignmentPair) -> torch.Tensor:
    """H1 H2^T for one pair."""
    x1, a1, x2, a2, _ = _tensors(pair)
    return model(x1, a1) @ model(x2, a2).T


def train(kind: str, *, noise: float, steps: int = 300, n: int = 100, degree: float = 8.0,
          temperature: float = 0.1, seed: int = 0) -> SiameseEncoder:
    """Fit a siamese encoder on fresh seeded pairs at this noise level."""
    torch.manual_seed(seed)
    pairs = make_pairs(steps, n=n, degree=degree, noise=noise, seed=seed + 1000)
    model = SiameseEncoder(kind, inputs=structural_features(pairs[0].source).shape[1])
    optimiser = torch.optim.Adam(model.parameters(), lr=3e-3)
    for pair in pairs:
        target = torch.from_numpy(pair.target).long()
        loss = torch.nn.functional.cross_entropy(similarity(model, pair) / temperature, target)
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
    return model.eval()


def hungarian_accuracy(scores: np.ndarray, target: np.ndarray) -> float:
    """Fraction of nodes matched correctly by the maximum-weight assignment on ``scores``."""
    rows, columns = linear_sum_assignment(-scores)
    return float(np.mean(columns[np.argsort(rows)] == target))


@torch.no_grad()
def evaluate(model: SiameseEncoder, pairs: Sequence[AlignmentPair]) -> float:
    """Mean Hungarian accuracy of ``model`` over ``pairs``."""
    return float(np.mean([hungarian_accuracy(similarity(model, p).numpy(), p.target) for p in pairs]))


def laplacian_baseline(pair: AlignmentPair, vectors: int = 20) -> float:
    """Hungarian accuracy of matching |eigenvectors| of the two Laplacians (signs are ambiguous)."""
    def embed(adjacency: np.ndarray) -> np.ndarray:
        laplacian = np.diag(adjacency.sum(axis=1)) - adjacency
        _, eigenvectors = np.linalg.eigh(laplacian)
        return np.abs(eigenvectors[:, 1:vectors + 1])

    left, right = embed(pair.source), embed(pair.copy)
    distances = ((left[:, None, :] - right[None, :, :]) ** 2).sum(-1)
    return hungarian_accuracy(-distances, pair.target)
