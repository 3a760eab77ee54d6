"""Choosing the final N items from the recalled candidates: epsilon-greedy by Q, blended, or similarity."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from memory.qmemory.config import QMemoryConfig


@dataclass
class Candidate:
    """A recalled memory id with its similarity to the query and its stage Q-value."""

    id: int
    similarity: float
    q: float = 0.0


def select(candidates: list[Candidate], n: int, config: QMemoryConfig, rng: np.random.Generator) -> list[Candidate]:
    """Pick ``n`` candidates with the policy named by ``config.selection``."""
    if config.selection == "similarity":
        return sorted(candidates, key=lambda c: -c.similarity)[:n]
    if config.selection == "blended":
        return blended(candidates, n, config.blend_weight, config.q_z_clip)
    return epsilon_greedy(candidates, n, config.epsilon, rng)


def epsilon_greedy(candidates: list[Candidate], n: int, epsilon: float, rng: np.random.Generator) -> list[Candidate]:
    """Fill each of ``n`` slots: with probability epsilon a uniformly random remaining candidate,
    otherwise the remaining one with the highest Q (ties go to the more similar)."""
    remaining = sorted(candidates, key=lambda c: (-c.q, -c.similarity))
    chosen: list[Candidate] = []
    while remaining and len(chosen) < n:
        explore = rng.random() < epsilon
        index = int(rng.integers(len(remaining))) if explore else 0
        chosen.append(remaining.pop(index))
    return chosen


def blended(candidates: list[Candidate], n: int, weight: float, clip: float) -> list[Candidate]:
    """Rank by z(similarity) + weight * clip(z(Q), -clip, clip)."""
    if not candidates:
        return []
    sims = zscore(np.array([c.similarity for c in candidates], dtype=np.float64))
    qs = np.clip(zscore(np.array([c.q for c in candidates], dtype=np.float64)), -clip, clip)
    score = sims + weight * qs
    order = sorted(range(len(candidates)), key=lambda i: (-score[i], -candidates[i].similarity))
    return [candidates[i] for i in order[:n]]


def zscore(values: np.ndarray) -> np.ndarray:
    """(x - mean) / std, all zeros when the values do not vary."""
    std = values.std()
    return (values - values.mean()) / std if std > 1e-12 else np.zeros_like(values)
