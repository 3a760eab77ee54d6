"""Inverted index for sparse embeddings: per kind and per dimension, the rows that use it.

A hashed TF-IDF query has few non-zero buckets, so a search touches only those buckets' posting
lists instead of every entry times every dimension. The raw values are kept; the IDF weights fold
into the query and into each row's norm, so refitting the weights recomputes the norms only.
Scores are accumulated in float64, one bucket after another in ascending order, so identical
vectors score bit-identically and ties are then broken by id.
"""

from __future__ import annotations

import numpy as np

from memory.qmemory.index import RefitSchedule, Weigher, best_first, reserve, top_k


class PostingList:
    """Rows (ascending, native ints so that ``np.add.at`` indexes without a cast) with a non-zero raw value
    in one dimension, and those values (arrays have spare capacity)."""

    __slots__ = ("rows", "values", "size")

    def __init__(self) -> None:
        self.rows = np.zeros(0, dtype=np.intp)
        self.values = np.zeros(0, dtype=np.float64)
        self.size = 0

    def extend(self, rows: np.ndarray, values: np.ndarray) -> None:
        stop = self.size + len(rows)
        self.rows, self.values = reserve(self.rows, stop), reserve(self.values, stop)
        self.rows[self.size:stop], self.values[self.size:stop] = rows, values
        self.size = stop

    def scatter(self, out: np.ndarray, coefficient: float) -> None:
        """``out[row] += coefficient * value`` over the whole list (the search's hot loop)."""
        np.add.at(out, self.rows[:self.size], coefficient * self.values[:self.size])

    def scatter_squares(self, out: np.ndarray, coefficient: float, first: int) -> None:
        """``out[row] += coefficient * value ** 2`` for the postings from position ``first`` on."""
        values = self.values[first:self.size]
        np.add.at(out, self.rows[first:self.size], coefficient * (values * values))


class Shard:
    """The entries of one kind: ids in row order, 1 / weighted norm per row, one posting list per dimension."""

    def __init__(self, dim: int):
        self.ids = np.zeros(0, dtype=np.int64)
        self.inv_norms = np.zeros(0, dtype=np.float64)
        self.lists = [PostingList() for _ in range(dim)]
        self.size = 0

    def append(self, ids: np.ndarray, raw: np.ndarray) -> None:
        """Add rows (their norms are set by the next ``weigh``)."""
        start, stop = self.size, self.size + len(ids)
        rows, dims = np.nonzero(raw)
        order = np.argsort(dims, kind="stable")
        rows, dims = rows[order], dims[order]
        values = raw[rows, dims].astype(np.float64)
        bounds = np.searchsorted(dims, np.arange(len(self.lists) + 1))
        for dim in np.flatnonzero(np.diff(bounds)):
            lo, hi = bounds[dim], bounds[dim + 1]
            self.lists[dim].extend(rows[lo:hi] + start, values[lo:hi])
        self.ids, self.inv_norms = reserve(self.ids, stop), reserve(self.inv_norms, stop)
        self.ids[start:stop] = ids
        self.size = stop

    def weigh(self, weights: np.ndarray, start: int = 0) -> None:
        """Recompute 1 / ||raw * weights|| of the rows from ``start``; each row's squares are summed in
        ascending dimension order, so identical rows get identical norms. Every row (a refit): one
        ``bincount`` over all posting lists; the rows just added: only the tail of each list."""
        if start == 0:
            squares = self._all_squares(weights)
        else:
            squares = np.zeros(self.size)
            for dim, postings in enumerate(self.lists):
                first = int(np.searchsorted(postings.rows[: postings.size], start))
                if first < postings.size:
                    postings.scatter_squares(squares, float(weights[dim]) ** 2, first)
        self.inv_norms[start:self.size] = 1.0 / np.maximum(np.sqrt(squares[start:]), 1e-12)

    def _all_squares(self, weights: np.ndarray) -> np.ndarray:
        used = [(dim, postings) for dim, postings in enumerate(self.lists) if postings.size]
        if not used:
            return np.zeros(self.size)
        rows = np.concatenate([postings.rows[: postings.size] for _, postings in used])
        terms = np.concatenate([float(weights[dim]) ** 2 * (postings.values[: postings.size] ** 2)
                                for dim, postings in used])
        return np.bincount(rows, weights=terms, minlength=self.size).astype(np.float64)

    def scores(self, dims: np.ndarray, coefficients: np.ndarray) -> np.ndarray:
        """Cosine similarity of every row to a query given as (non-zero dims, weighted unit coefficients)."""
        totals, lists = np.zeros(self.size), self.lists
        for dim, coefficient in zip(dims.tolist(), coefficients.tolist()):
            lists[dim].scatter(totals, coefficient)
        return totals * self.inv_norms[: self.size]

    def score_rows(self, rows: np.ndarray, dims: np.ndarray, coefficients: np.ndarray) -> np.ndarray:
        """The same similarities for some rows only (each posting list searched for all of them at once)."""
        totals = np.zeros(len(rows))
        for dim, coefficient in zip(dims.tolist(), coefficients.tolist()):
            postings = self.lists[dim]
            if postings.size:
                listed = postings.rows[: postings.size]
                at = np.minimum(np.searchsorted(listed, rows), postings.size - 1)
                totals += coefficient * np.where(listed[at] == rows, postings.values[at], 0.0)
        return totals * self.inv_norms[rows]

    def document_frequencies(self) -> np.ndarray:
        return np.array([postings.size for postings in self.lists], dtype=np.int64)


class PostingsIndex:
    """Cosine-similarity search over sparse raw vectors with weights (IDF) refitted as memory grows."""

    def __init__(self, dim: int, weigher: Weigher, refit_exact_below: int = 20000):
        self.dim = dim
        self._weigher = weigher
        self._schedule = RefitSchedule(refit_exact_below)
        self._weights = np.ones(dim)
        self._shards: dict[int, Shard] = {}
        self._row_of: dict[int, tuple[int, int]] = {}  # id -> (kind code, row)
        self._size = 0

    def __len__(self) -> int:
        return self._size

    def add(self, ids: np.ndarray, kinds: np.ndarray, raw: np.ndarray) -> None:
        """Append entries (ids ascending, raw vectors) and refit the weights when memory has grown enough."""
        if len(ids) == 0:
            return
        self._size += len(ids)
        refit = self._schedule.due(self._size)
        for kind in np.unique(kinds).tolist():
            rows = np.flatnonzero(kinds == kind)
            shard = self._shards.get(kind) or self._shards.setdefault(kind, Shard(self.dim))
            start = shard.size
            shard.append(ids[rows], raw[rows])
            self._row_of.update({int(i): (kind, start + r) for r, i in enumerate(ids[rows].tolist())})
            if not refit:
                shard.weigh(self._weights, start)
        if refit:
            self._refit()

    def search(self, query_raw: np.ndarray, k: int, kinds: list[int] | None = None) -> tuple[np.ndarray, np.ndarray]:
        """The ``k`` most similar entries (ids, similarities), best first, ties by lower id."""
        dims, coefficients = self._query(query_raw)
        found_ids, found_scores = [np.zeros(0, dtype=np.int64)], [np.zeros(0)]
        for code, shard in sorted(self._shards.items()):
            if kinds is None or code in kinds:
                scores = shard.scores(dims, coefficients)
                top = top_k(scores, k)
                found_ids.append(shard.ids[top])
                found_scores.append(scores[top])
        return best_first(np.concatenate(found_ids), np.concatenate(found_scores), k)

    def similarities(self, query_raw: np.ndarray, ids: list[int]) -> np.ndarray:
        """Similarity of the query to each of ``ids`` (entries not indexed score -inf)."""
        dims, coefficients = self._query(query_raw)
        wanted: dict[int, tuple[list[int], list[int]]] = {}
        for position, entry_id in enumerate(ids):
            if int(entry_id) in self._row_of:
                code, row = self._row_of[int(entry_id)]
                positions, rows = wanted.setdefault(code, ([], []))
                positions.append(position)
                rows.append(row)
        out = np.full(len(ids), -np.inf)
        for code, (positions, rows) in wanted.items():
            out[positions] = self._shards[code].score_rows(np.array(rows), dims, coefficients)
        return out

    def _query(self, query_raw: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The query's non-zero dimensions and what each raw row value there is multiplied by: the query
        weighted and made unit length, times the weight again (the row's side of the weighting)."""
        weighted = np.asarray(query_raw, dtype=np.float64) * self._weights
        dims = np.flatnonzero(weighted)
        norm = max(float(np.sqrt(np.dot(weighted, weighted))), 1e-12)
        return dims, weighted[dims] * self._weights[dims] / norm

    def _refit(self) -> None:
        frequencies = sum(shard.document_frequencies() for shard in self._shards.values())
        weights = self._weigher(frequencies, self._size)
        self._weights = np.ones(self.dim) if weights is None else np.asarray(weights, dtype=np.float64)
        for shard in self._shards.values():
            shard.weigh(self._weights)
        self._schedule.fitted_at = self._size
