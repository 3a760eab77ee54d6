import numpy as np
import pytest

from memory.qmemory.embedding import HashedTfidfEmbedder
from memory.qmemory.index import VectorIndex


def make(rows, refit_below=20000):
    embedder = HashedTfidfEmbedder(128)
    index = VectorIndex(128, embedder.column_weights, refit_below)
    raw = embedder.embed(rows)
    index.add(np.arange(1, len(rows) + 1), np.array([i % 2 for i in range(len(rows))], dtype=np.int8), raw)
    return embedder, index, raw


def test_search_returns_the_best_first_and_filters_kinds():
    embedder, index, _ = make(["relu kernel", "softmax kernel", "relu relu tile", "matmul cube"])
    ids, sims = index.search(embedder.embed(["relu"])[0], 2)
    assert set(ids.tolist()) == {1, 3} and sims[0] >= sims[1]
    ids, _ = index.search(embedder.embed(["relu"])[0], 2, kinds=[1])
    assert ids.tolist()[0] in (2, 4) and 1 not in ids and 3 not in ids


def test_similarities_equal_tfidf_cosine_after_growth_and_refit():
    embedder, index, raw = make([f"word{i} shared common" for i in range(50)])
    more = embedder.embed([f"extra{i} shared" for i in range(40)])
    index.add(np.arange(51, 91), np.zeros(40, dtype=np.int8), more)
    everything = np.vstack([raw, more])
    weights = embedder.column_weights(everything)
    query = embedder.embed(["word3 shared"])[0]
    expected = (everything * weights) @ (query * weights)
    expected /= np.linalg.norm(everything * weights, axis=1) * np.linalg.norm(query * weights)
    got = index.similarities(query, list(range(1, 91)))
    assert got == pytest.approx(expected, abs=1e-5)


def test_k_larger_than_the_index_returns_everything():
    embedder, index, _ = make(["a", "b"])
    ids, _ = index.search(embedder.embed(["a"])[0], 10)
    assert sorted(ids.tolist()) == [1, 2]
    ids, _ = index.search(embedder.embed(["a"])[0], 10, kinds=[5])
    assert ids.tolist() == []
