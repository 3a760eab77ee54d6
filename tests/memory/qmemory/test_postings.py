import numpy as np
import pytest

from memory.qmemory.embedding import HashedTfidfEmbedder
from memory.qmemory.postings import PostingsIndex

DIM = 256
VOCABULARY = [f"w{i}" for i in range(400)] + ["tile", "buffer", "DataCopy", "UB", "x_local", "+=", "**"]


def random_texts(rng, count):
    """Texts of 1-25 words; every fifth one repeats an earlier text exactly, so equal scores are common."""
    texts = []
    for i in range(count):
        if i >= 10 and i % 5 == 0:
            texts.append(texts[int(rng.integers(i))])
        else:
            texts.append(" ".join(rng.choice(VOCABULARY, size=int(rng.integers(1, 26)))))
    return texts


class BruteForce:
    """The reference: float64 TF-IDF cosine over every row, ordered by similarity then lower id."""

    def __init__(self, raw, ids, kinds):
        self.weights = HashedTfidfEmbedder(DIM).column_weights(np.count_nonzero(raw, axis=0), len(raw))
        self.weights = self.weights.astype(np.float64)
        rows = raw.astype(np.float64) * self.weights
        self.rows = rows / np.maximum(np.linalg.norm(rows, axis=1), 1e-12)[:, None]
        self.ids, self.kinds = ids, kinds

    def search(self, query_raw, k, allowed=None):
        query = query_raw.astype(np.float64) * self.weights
        scores = self.rows @ (query / max(np.linalg.norm(query), 1e-12))
        keep = np.flatnonzero(np.isin(self.kinds, allowed)) if allowed is not None else np.arange(len(self.ids))
        order = np.lexsort((self.ids[keep], -np.round(scores[keep], 12)))[:k]
        return self.ids[keep][order], scores[keep][order]


@pytest.fixture(scope="module")
def corpus():
    rng = np.random.default_rng(3)
    embedder = HashedTfidfEmbedder(DIM)
    raw = embedder.embed(random_texts(rng, 3000))
    ids = np.arange(1, 3001) * 2  # ids need not be dense
    kinds = rng.integers(0, 4, size=3000).astype(np.int8)
    index = PostingsIndex(DIM, embedder.column_weights)
    for start, stop in [(0, 1), (1, 700), (700, 701), (701, 2500), (2500, 3000)]:  # grows incrementally
        index.add(ids[start:stop], kinds[start:stop], raw[start:stop])
    queries = random_texts(rng, 40) + ["w1", "tile tile buffer", "nothing of this is in the vocabulary"]
    return embedder, index, raw, ids, kinds, [embedder.embed([q])[0] for q in queries], BruteForce(raw, ids, kinds)


@pytest.mark.parametrize("k", [1, 12, 60])
@pytest.mark.parametrize("allowed", [None, [0], [1, 2, 3]])
def test_search_returns_exactly_the_brute_force_candidates_in_order(corpus, k, allowed):
    _, index, _, _, _, queries, reference = corpus
    for query in queries:
        got_ids, got_sims = index.search(query, k, allowed)
        want_ids, want_sims = reference.search(query, k, allowed)
        assert got_ids.tolist() == want_ids.tolist()
        assert got_sims == pytest.approx(want_sims, abs=1e-9)


def test_the_corpus_has_ties_at_the_cut(corpus):
    # the test above means something only if equal scores straddle the k-th place for some query
    *_, queries, reference = corpus
    straddling = 0
    for query in queries:
        _, sims = reference.search(query, 13)
        straddling += bool(np.isclose(sims[11], sims[12], rtol=0, atol=1e-12))
    assert straddling >= 3


def test_identical_vectors_score_bit_identically_whether_normed_at_a_refit_or_on_append(corpus):
    embedder, _, raw, ids, kinds, queries, _ = corpus
    index = PostingsIndex(DIM, embedder.column_weights, refit_exact_below=100)
    index.add(ids[:2000], kinds[:2000], raw[:2000])
    index.add(ids[2000:2100], kinds[2000:2100], raw[2000:2100])  # under 10% growth: no refit, normed on append
    pairs = [(int(ids[np.flatnonzero((raw[:2000] == raw[i]).all(axis=1))[0]]), int(ids[i]))
             for i in range(2000, 2100) if (raw[:2000] == raw[i]).all(axis=1).any()]
    assert len(pairs) >= 5
    for query in queries:
        for original, repeat in pairs:
            a, b = index.similarities(query, [original, repeat])
            assert a == b


def test_one_bulk_add_equals_many_small_adds(corpus):
    embedder, index, raw, ids, kinds, queries, _ = corpus
    bulk = PostingsIndex(DIM, embedder.column_weights)
    bulk.add(ids, kinds, raw)
    for query in queries[:10]:
        assert [a.tolist() for a in bulk.search(query, 20)] == [a.tolist() for a in index.search(query, 20)]


def test_similarities_match_search_scores(corpus):
    _, index, _, _, _, queries, _ = corpus
    ids, sims = index.search(queries[0], 30)
    assert index.similarities(queries[0], ids.tolist()) == pytest.approx(sims, abs=1e-12)
