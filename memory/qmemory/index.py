"""What every memory index shares: the search interface, deterministic top-k, and when to refit weights.

Two indexes implement it: ``PostingsIndex`` (posting lists, for sparse hashed TF-IDF vectors) and
``DenseIndex`` (a dense matrix product, for dense sentence-transformer vectors and as the
brute-force baseline). Both order results by similarity, then by id, so that equal scores never
make a result depend on the index or on the order of a partial sort.
"""

from __future__ import annotations

from typing import Callable, Protocol

import numpy as np

Weigher = Callable[[np.ndarray, int], "np.ndarray | None"]
"""Per-dimension weights from (document frequency per dimension, number of vectors), or None."""


class Index(Protocol):
    """Cosine-similarity search over memory entries, filtered by kind code."""

    dim: int

    def __len__(self) -> int: ...

    def add(self, ids: np.ndarray, kinds: np.ndarray, raw: np.ndarray) -> None:
        """Append entries (ids ascending, raw unweighted vectors)."""
        ...

    def search(self, query_raw: np.ndarray, k: int, kinds: list[int] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """The ``k`` most similar entries (ids, similarities), best first, ties by lower id."""
        ...

    def similarities(self, query_raw: np.ndarray, ids: list[int]) -> np.ndarray:
        """Similarity of the query to each of ``ids`` (entries not indexed score -inf)."""
        ...


class RefitSchedule:
    """Refit the weights whenever memory grows while it is small, then each time it grows by 10%."""

    def __init__(self, exact_below: int):
        self.exact_below = exact_below
        self.fitted_at = 0

    def due(self, size: int) -> bool:
        if size == self.fitted_at:
            return False
        return size < self.exact_below or 10 * size >= 11 * self.fitted_at


def top_k(scores: np.ndarray, k: int) -> np.ndarray:
    """Positions of the ``k`` largest scores, best first; equal scores go to the lower position."""
    n = len(scores)
    k = min(k, n)
    if k <= 0:
        return np.zeros(0, dtype=np.int64)
    if k < n:
        kth = np.partition(scores, n - k)[n - k]
        above = np.flatnonzero(scores > kth)
        tied = np.flatnonzero(scores == kth)[: k - len(above)]
        positions = np.concatenate([above, tied])
    else:
        positions = np.arange(n)
    return positions[np.lexsort((positions, -scores[positions]))]


def best_first(ids: np.ndarray, scores: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The ``k`` best (ids, scores) of a merged candidate list: by score, then by lower id."""
    order = np.lexsort((ids, -scores))[:k]
    return ids[order], scores[order]


def grow(array: np.ndarray, capacity: int) -> np.ndarray:
    """A copy of ``array`` with room for ``capacity`` rows (the new rows are zero)."""
    grown = np.zeros((capacity,) + array.shape[1:], dtype=array.dtype)
    grown[: len(array)] = array
    return grown


def reserve(array: np.ndarray, needed: int) -> np.ndarray:
    """``array`` itself if it holds ``needed`` rows, else a grown copy (capacity doubles: amortised O(1))."""
    if needed <= len(array):
        return array
    return grow(array, max(needed, 2 * len(array), 64))
