"""QMemory: the experience memory an EvoKernel agent retrieves from and learns into."""

from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

from memory.qmemory import qtable
from memory.qmemory.config import QMemoryConfig
from memory.qmemory.embedding import Embedder, make_embedder
from memory.qmemory.entries import EntryKind, MemoryEntry
from memory.qmemory.dense import DenseIndex
from memory.qmemory.index import Index
from memory.qmemory.postings import PostingsIndex
from memory.qmemory.retrieval import Candidate, select
from memory.qmemory.store import KIND_CODES, MemoryStore


@dataclass
class Retrieved:
    """An entry chosen for the context, with why: its similarity and its Q-value."""

    entry: MemoryEntry
    similarity: float
    q: float


@dataclass
class QUpdate:
    """Apply the attempt's reward to these memory ids under (stage, signature)."""

    stage: str
    signature: str
    ids: list[int]


@dataclass
class QInherit:
    """A kernel born of refining another starts from its parent's value: after the attempt's updates, the
    child's key (stage, signature, child_id) is seeded with the parent's Q under (stage, parent_signature)
    and then takes the attempt's reward, the outcome of its own making."""

    stage: str
    parent_signature: str
    parent_id: int
    signature: str
    child_id: int


def make_index(embedder: Embedder, refit_exact_below: int) -> Index:
    """Posting lists for a sparse embedding (a query touches only its own buckets), else a dense matrix."""
    kind = PostingsIndex if embedder.sparse else DenseIndex
    return kind(embedder.dim, embedder.column_weights, refit_exact_below)


class QMemory:
    """SQLite-backed memory with a dense in-memory index; share one instance between threads,
    or open the same file from several processes."""

    def __init__(self, path: str | Path, config: QMemoryConfig | None = None):
        self.config = config or QMemoryConfig()
        self.store = MemoryStore(path, self.config.busy_timeout_ms)
        self.embedder = self._choose_embedder()
        self.index = make_index(self.embedder, self.config.idf_exact_below)
        self.rng = np.random.default_rng(self.config.seed)
        self._last_id = 0
        self._lock = threading.Lock()
        self.sync()

    def _choose_embedder(self) -> Embedder:
        stored = self.store.get_meta("embedder")
        spec = stored if (self.config.embedding == "auto" and stored) else self.config.embedding
        embedder = make_embedder(spec, self.config.embedding_dim)
        if stored != embedder.name:
            self._reembed_all(embedder)
            self.store.set_meta("embedder", embedder.name)
        return embedder

    def _reembed_all(self, embedder: Embedder) -> None:
        """Re-embed every stored entry (the memory was written with another embedder)."""
        entries = self.store.find()
        for start in range(0, len(entries), 512):
            batch = entries[start:start + 512]
            self.store.set_vectors([e.id for e in batch], embedder.embed([e.key_text for e in batch]))

    def add(self, entries: Sequence[MemoryEntry]) -> list[int]:
        """Store entries (embedding their key text) and return their ids; duplicates keep their old id."""
        entries = list(entries)
        if not entries:
            return []
        ids = self.store.add_entries(entries, self.embedder.embed([e.key_text for e in entries]))
        self.sync()
        return ids

    def sync(self) -> None:
        """Index the entries other workers or processes have written since the last sync."""
        with self._lock:
            ids, kinds, blobs = self.store.vectors_since(self._last_id)
            if len(ids):
                raw = np.frombuffer(b"".join(blobs), dtype=np.float32).reshape(len(ids), self.embedder.dim)
                self.index.add(ids, kinds, raw)
                self._last_id = int(ids[-1])

    def recall(self, query: str, kinds: Sequence[EntryKind], k: int) -> list[Candidate]:
        """The ``k`` entries of the given kinds most similar to ``query``."""
        self.sync()
        raw = self.embedder.embed([query])[0]
        with self._lock:
            ids, sims = self.index.search(raw, k, [KIND_CODES[EntryKind(kind)] for kind in kinds])
        return [Candidate(int(i), float(s)) for i, s in zip(ids, sims)]

    def retrieve(self, query: str, stage: str, signature: str, kinds: Sequence[EntryKind], n: int | None = None,
                 rng: np.random.Generator | None = None) -> list[Retrieved]:
        """Dense recall of lambda*N candidates by similarity, then N chosen by stage Q (config.selection)."""
        n = self.config.top_n if n is None else n
        candidates = self.recall(query, kinds, max(n, math.ceil(self.config.recall_factor * n)))
        values = qtable.q_values(self.store, stage, signature, [c.id for c in candidates], self.config.q_init)
        for candidate in candidates:
            candidate.q = values[candidate.id]
        chosen = select(candidates, n, self.config, rng if rng is not None else self.rng)
        return self._resolve(chosen)

    def retrieve_api(self, query: str, n: int | None = None) -> list[Retrieved]:
        """API templates by similarity only (no Q-values)."""
        chosen = self.recall(query, [EntryKind.API], self.config.api_top_n if n is None else n)
        return self._resolve(chosen)

    def rank(self, query: str, entries: Sequence[MemoryEntry], stage: str, signature: str) -> list[Retrieved]:
        """Score given entries (e.g. a start point's children) by similarity and Q, best Q first."""
        self.sync()
        raw = self.embedder.embed([query])[0]
        with self._lock:
            sims = self.index.similarities(raw, [e.id for e in entries])
        values = qtable.q_values(self.store, stage, signature, [e.id for e in entries], self.config.q_init)
        ranked = [Retrieved(e, float(s), values[e.id]) for e, s in zip(entries, sims)]
        return sorted(ranked, key=lambda r: (-r.q, -r.similarity))

    def _resolve(self, chosen: list[Candidate]) -> list[Retrieved]:
        entries = {e.id: e for e in self.store.get([c.id for c in chosen])}
        return [Retrieved(entries[c.id], c.similarity, c.q) for c in chosen if c.id in entries]

    def q(self, stage: str, signature: str, ids: Sequence[int]) -> dict[int, float]:
        """Current Q-values of ``ids`` under (stage, signature)."""
        return qtable.q_values(self.store, stage, signature, ids, self.config.q_init)

    def learn(self, key: str, updates: Sequence[QUpdate], reward: float, popart: str | None = None,
              inherits: Sequence[QInherit] = ()) -> float | None:
        """Apply one attempt's reward to every update's ids, then seed and update each inheriting child,
        once per ``key`` (a resumed step is a no-op).

        With ``popart`` the reward is first normalised by the running statistics of that name.
        Returns the reward applied, or None when ``key`` was applied before.
        """
        with self.store.transaction() as conn:
            if not qtable.claim(conn, key):
                return None
            if popart:
                reward = qtable.normalise_reward(conn, popart, reward, self.config.popart_beta,
                                                 self.config.popart_min_std)
            for update in updates:
                qtable.update_q(conn, update.stage, update.signature, update.ids, reward,
                                self.config.alpha, self.config.q_init)
            for child in inherits:
                if qtable.inherit_q(conn, child.stage, child.parent_signature, child.parent_id, child.signature,
                                    child.child_id, self.config.q_init):
                    qtable.update_q(conn, child.stage, child.signature, [child.child_id], reward,
                                    self.config.alpha, self.config.q_init)
        return reward

    def close(self) -> None:
        self.store.close()
