"""In-memory dense index: a numpy matrix of normalised vectors, searched with argpartition.

Rows are appended as memory grows (capacity doubles, so appends are amortised O(1)). The raw
vectors are multiplied by the embedder's column weights (IDF) and L2-normalised; when the weights
are refitted, the stored row norms let the index recover the raw vectors without keeping a copy.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

Weigher = Callable[[np.ndarray], "np.ndarray | None"]


class VectorIndex:
    """Cosine-similarity search over memory entries, with a per-row kind code for filtering."""

    def __init__(self, dim: int, weigher: Weigher, refit_exact_below: int = 20000):
        self.dim = dim
        self._weigher = weigher
        self._refit_exact_below = refit_exact_below
        self._matrix = np.zeros((0, dim), dtype=np.float32)
        self._norms = np.zeros(0, dtype=np.float32)
        self._ids = np.zeros(0, dtype=np.int64)
        self._kinds = np.zeros(0, dtype=np.int8)
        self._size = 0
        self._weights: np.ndarray | None = None
        self._fitted_at = 0
        self._row_of: dict[int, int] = {}
        self._mask_cache: dict[tuple[int, ...], np.ndarray] = {}

    def __len__(self) -> int:
        return self._size

    def add(self, ids: np.ndarray, kinds: np.ndarray, raw: np.ndarray) -> None:
        """Append entries (raw, unweighted vectors) and refit the weights when memory has grown enough."""
        if len(ids) == 0:
            return
        self._reserve(self._size + len(ids))
        start, stop = self._size, self._size + len(ids)
        self._ids[start:stop] = ids
        self._kinds[start:stop] = kinds
        self._row_of.update({int(i): start + k for k, i in enumerate(ids)})
        self._matrix[start:stop], self._norms[start:stop] = self._weigh(raw.astype(np.float32))
        self._size = stop
        if self._needs_refit():
            self._refit()

    def search(self, query_raw: np.ndarray, k: int, kinds: list[int] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """The ``k`` most similar entries (ids, similarities), best first, optionally of some kinds only."""
        scores = self._matrix[: self._size] @ self.weigh_query(query_raw)
        if kinds is not None:
            np.putmask(scores, self._excluded(tuple(sorted(kinds))), -np.inf)
        k = min(k, int(np.isfinite(scores).sum()))
        if k <= 0:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
        top = np.argpartition(-scores, k - 1)[:k] if k < len(scores) else np.arange(len(scores))
        top = top[np.argsort(-scores[top], kind="stable")]
        return self._ids[top].copy(), scores[top]

    def _excluded(self, kinds: tuple[int, ...]) -> np.ndarray:
        """Rows not of ``kinds`` (cached until the index grows)."""
        cached = self._mask_cache.get(kinds)
        if cached is None or len(cached) != self._size:
            cached = ~np.isin(self._kinds[: self._size], kinds)
            self._mask_cache[kinds] = cached
        return cached

    def similarities(self, query_raw: np.ndarray, ids: list[int]) -> np.ndarray:
        """Similarity of the query to each of ``ids`` (entries not indexed score -inf)."""
        query = self.weigh_query(query_raw)
        return np.array([float(self._matrix[self._row_of[i]] @ query) if i in self._row_of else -np.inf
                         for i in ids], dtype=np.float32)

    def weigh_query(self, query_raw: np.ndarray) -> np.ndarray:
        """The query in the index's space: weighted and unit length."""
        weighted, _ = self._weigh(query_raw.reshape(1, -1).astype(np.float32))
        return weighted[0]

    def _weigh(self, raw: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        weighted = raw * self._weights if self._weights is not None else raw
        norms = np.linalg.norm(weighted, axis=1).astype(np.float32)
        return weighted / np.maximum(norms, 1e-12)[:, None], norms

    def _needs_refit(self) -> bool:
        if self._size == self._fitted_at:
            return False
        return self._size < self._refit_exact_below or self._size >= 1.1 * self._fitted_at

    def _refit(self) -> None:
        """Recover raw rows (weighted * norm / old weights), fit new weights, re-weigh every row."""
        rows = self._matrix[: self._size] * self._norms[: self._size, None]
        if self._weights is not None:
            rows /= self._weights
        self._weights = self._weigher(rows)
        self._matrix[: self._size], self._norms[: self._size] = self._weigh(rows)
        self._fitted_at = self._size

    def _reserve(self, needed: int) -> None:
        if needed <= len(self._ids):
            return
        capacity = max(needed, 2 * len(self._ids), 64)
        self._matrix = _grow(self._matrix, capacity)
        self._norms = _grow(self._norms, capacity)
        self._ids = _grow(self._ids, capacity)
        self._kinds = _grow(self._kinds, capacity)


def _grow(array: np.ndarray, capacity: int) -> np.ndarray:
    grown = np.zeros((capacity,) + array.shape[1:], dtype=array.dtype)
    grown[: len(array)] = array
    return grown
