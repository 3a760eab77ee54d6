"""Brute-force dense index: a float32 matrix of weighted unit vectors times the query, for every entry.

The index for dense embeddings (a sentence-transformer), and the baseline the postings index is
measured against. Rows are appended as memory grows (capacity doubles); when the weights are
refitted, the stored row norms recover the raw vectors without keeping a copy. The product runs on
one BLAS thread by default: a single matrix-vector product is memory-bound, and on a loaded 2-core
machine a second BLAS thread only waits for a CPU (and spins, taking one from everything else).
"""

from __future__ import annotations

import contextlib

import numpy as np
from threadpoolctl import ThreadpoolController

from memory.qmemory.index import RefitSchedule, Weigher, reserve, top_k


class DenseIndex:
    """Cosine similarity as one matrix-vector product over all rows, kinds masked out afterwards.

    ``blas_threads`` caps the BLAS threads of that product; None leaves BLAS at its default (every core).
    """

    def __init__(self, dim: int, weigher: Weigher, refit_exact_below: int = 20000, blas_threads: int | None = 1):
        self.dim = dim
        self._blas = ThreadpoolController() if blas_threads else None
        self._blas_threads = blas_threads
        self._weigher = weigher
        self._schedule = RefitSchedule(refit_exact_below)
        self._matrix = np.zeros((0, dim), dtype=np.float32)
        self._norms = np.zeros(0, dtype=np.float32)
        self._ids = np.zeros(0, dtype=np.int64)
        self._kinds = np.zeros(0, dtype=np.int8)
        self._size = 0
        self._weights: np.ndarray | None = None
        self._row_of: dict[int, int] = {}
        self._mask_cache: dict[tuple[int, ...], np.ndarray] = {}

    def __len__(self) -> int:
        return self._size

    def add(self, ids: np.ndarray, kinds: np.ndarray, raw: np.ndarray) -> None:
        """Append entries (raw, unweighted vectors) and refit the weights when memory has grown enough."""
        if len(ids) == 0:
            return
        start, stop = self._size, self._size + len(ids)
        self._matrix, self._norms = reserve(self._matrix, stop), reserve(self._norms, stop)
        self._ids, self._kinds = reserve(self._ids, stop), reserve(self._kinds, stop)
        self._ids[start:stop] = ids
        self._kinds[start:stop] = kinds
        self._row_of.update({int(i): start + k for k, i in enumerate(ids.tolist())})
        self._matrix[start:stop], self._norms[start:stop] = self._weigh(raw.astype(np.float32))
        self._size = stop
        if self._schedule.due(self._size):
            self._refit()

    def search(self, query_raw: np.ndarray, k: int, kinds: list[int] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """The ``k`` most similar entries (ids, similarities), best first, ties by lower id."""
        query = self._weigh_query(query_raw)
        with self._thread_limit():
            scores = self._matrix[: self._size] @ query
        if kinds is not None:
            np.putmask(scores, self._excluded(tuple(sorted(kinds))), -np.inf)
        top = top_k(scores, min(k, int(np.isfinite(scores).sum())))
        return self._ids[top], scores[top]

    def similarities(self, query_raw: np.ndarray, ids: list[int]) -> np.ndarray:
        """Similarity of the query to each of ``ids`` (entries not indexed score -inf)."""
        query = self._weigh_query(query_raw)
        return np.array([float(self._matrix[self._row_of[i]] @ query) if i in self._row_of else -np.inf
                         for i in ids], dtype=np.float64)

    def _thread_limit(self) -> contextlib.AbstractContextManager:
        """BLAS limited to ``blas_threads`` for the duration (no limit when it is None)."""
        if self._blas is None:
            return contextlib.nullcontext()
        return self._blas.limit(limits=self._blas_threads, user_api="blas")

    def _excluded(self, kinds: tuple[int, ...]) -> np.ndarray:
        """Rows not of ``kinds`` (cached until the index grows)."""
        cached = self._mask_cache.get(kinds)
        if cached is None or len(cached) != self._size:
            cached = ~np.isin(self._kinds[: self._size], kinds)
            self._mask_cache[kinds] = cached
        return cached

    def _weigh_query(self, query_raw: np.ndarray) -> np.ndarray:
        weighted, _ = self._weigh(query_raw.reshape(1, -1).astype(np.float32))
        return weighted[0]

    def _weigh(self, raw: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        weighted = raw * self._weights if self._weights is not None else raw
        norms = np.linalg.norm(weighted, axis=1).astype(np.float32)
        return weighted / np.maximum(norms, 1e-12)[:, None], norms

    def _refit(self) -> None:
        """Recover raw rows (weighted * norm / old weights), fit new weights, re-weigh every row."""
        rows = self._matrix[: self._size] * self._norms[: self._size, None]
        if self._weights is not None:
            rows /= self._weights
        weights = self._weigher(np.count_nonzero(rows, axis=0), self._size)
        self._weights = None if weights is None else weights.astype(np.float32)
        self._matrix[: self._size], self._norms[: self._size] = self._weigh(rows)
        self._schedule.fitted_at = self._size
