import numpy as np
import pytest

from memory.qmemory.dense import DenseIndex
from memory.qmemory.embedding import HashedTfidfEmbedder
from memory.qmemory.index import RefitSchedule, best_first, top_k
from memory.qmemory.postings import PostingsIndex


def test_top_k_is_best_first_and_breaks_ties_by_lower_position():
    scores = np.array([0.5, 0.9, 0.5, 0.1, 0.9, 0.5])
    assert top_k(scores, 3).tolist() == [1, 4, 0]
    assert top_k(scores, 4).tolist() == [1, 4, 0, 2]
    assert top_k(scores, 10).tolist() == [1, 4, 0, 2, 5, 3]
    assert top_k(scores, 0).tolist() == []


def test_top_k_treats_negative_zero_as_a_tie_with_zero():
    assert top_k(np.array([0.0, -0.0, 0.0, -1.0]), 2).tolist() == [0, 1]


def test_best_first_merges_by_score_then_lower_id():
    ids, scores = best_first(np.array([9, 3, 5, 7]), np.array([0.2, 0.2, 0.8, 0.1]), 3)
    assert ids.tolist() == [5, 3, 9] and scores.tolist() == [0.8, 0.2, 0.2]


def test_refit_is_due_on_every_growth_while_small_then_every_ten_percent():
    schedule = RefitSchedule(exact_below=100)
    assert schedule.due(1) and schedule.due(99)
    schedule.fitted_at = 200
    assert not schedule.due(200) and not schedule.due(219) and schedule.due(220)


@pytest.mark.parametrize("size", [1, 5])
def test_top_k_with_k_at_or_above_the_size_sorts_everything(size):
    scores = np.linspace(0, 1, size)
    assert top_k(scores, size).tolist() == list(range(size))[::-1]


# The behaviour every index shares, checked on both implementations.

INDEXES = [PostingsIndex, DenseIndex]


def make(kind, rows, refit_below=20000):
    embedder = HashedTfidfEmbedder(128)
    index = kind(128, embedder.column_weights, refit_below)
    raw = embedder.embed(rows)
    index.add(np.arange(1, len(rows) + 1), np.array([i % 2 for i in range(len(rows))], dtype=np.int8), raw)
    return embedder, index, raw


@pytest.mark.parametrize("kind", INDEXES)
def test_search_returns_the_best_first_and_filters_kinds(kind):
    embedder, index, _ = make(kind, ["relu kernel", "softmax kernel", "relu relu tile", "matmul cube"])
    ids, sims = index.search(embedder.embed(["relu"])[0], 2)
    assert set(ids.tolist()) == {1, 3} and sims[0] >= sims[1]
    ids, _ = index.search(embedder.embed(["relu"])[0], 2, kinds=[1])
    assert ids.tolist()[0] in (2, 4) and 1 not in ids and 3 not in ids


@pytest.mark.parametrize("kind", INDEXES)
@pytest.mark.parametrize("refit_below", [20000, 60])
def test_similarities_equal_tfidf_cosine_after_growth_and_refit(kind, refit_below):
    embedder, index, raw = make(kind, [f"word{i} shared common" for i in range(50)], refit_below)
    more = embedder.embed([f"extra{i} shared" for i in range(40)])
    index.add(np.arange(51, 91), np.zeros(40, dtype=np.int8), more)  # 90 >= 1.1 * 50: refitted either way
    everything = np.vstack([raw, more])
    weights = embedder.column_weights(np.count_nonzero(everything, axis=0), len(everything))
    query = embedder.embed(["word3 shared"])[0]
    expected = (everything * weights) @ (query * weights)
    expected /= np.linalg.norm(everything * weights, axis=1) * np.linalg.norm(query * weights)
    got = index.similarities(query, list(range(1, 91)))
    assert got == pytest.approx(expected, abs=1e-5)
    ids, sims = index.search(query, 90)
    assert sims == pytest.approx(expected[ids - 1], abs=1e-5)


@pytest.mark.parametrize("kind", INDEXES)
def test_k_larger_than_the_index_returns_everything_and_unknown_ids_score_minus_inf(kind):
    embedder, index, _ = make(kind, ["a", "b"])
    ids, _ = index.search(embedder.embed(["a"])[0], 10)
    assert ids.tolist() == [1, 2] and len(index) == 2
    ids, _ = index.search(embedder.embed(["a"])[0], 10, kinds=[5])
    assert ids.tolist() == []
    assert index.similarities(embedder.embed(["a"])[0], [99])[0] == -np.inf


@pytest.mark.parametrize("kind", INDEXES)
def test_equal_scores_go_to_the_lower_id(kind):
    embedder, index, _ = make(kind, ["tile loop", "cube", "tile loop", "vector", "tile loop"])
    ids, sims = index.search(embedder.embed(["tile"])[0], 2)
    assert ids.tolist() == [1, 3] and sims[0] == sims[1]
    ids, _ = index.search(embedder.embed(["nothing shared"])[0], 3)  # every score is 0
    assert ids.tolist() == [1, 2, 3]
