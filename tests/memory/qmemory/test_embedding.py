import importlib.util

import numpy as np
import pytest

from memory.qmemory.embedding import HashedTfidfEmbedder, make_embedder, tokens
from sandboxes.errors import UserError


def test_tokens_split_identifiers_and_keep_the_whole():
    assert tokens("DataCopy(x_local, 32)") == ["datacopy", "data", "copy", "(", "x_local", "x", "local", ",", "32", ")"]


def test_hashed_vectors_are_deterministic_and_sublinear():
    embedder = HashedTfidfEmbedder(64)
    once, twice = embedder.embed(["relu", "relu relu"])
    assert np.count_nonzero(once) == 1
    assert np.abs(twice).sum() == pytest.approx(1 + np.log(2))
    assert np.array_equal(embedder.embed(["relu"])[0], once)


def test_idf_downweights_buckets_present_everywhere():
    embedder = HashedTfidfEmbedder(4096)
    raw = embedder.embed(["kernel relu", "kernel softmax", "kernel matmul"])
    weights = embedder.column_weights(np.count_nonzero(raw, axis=0), len(raw))
    common = np.flatnonzero(raw[0] * raw[1] * raw[2])
    rare = np.flatnonzero(raw[1] * (raw[0] == 0) * (raw[2] == 0))
    assert weights[common].max() == pytest.approx(1.0)  # log(4/4) + 1
    assert weights[rare].min() == pytest.approx(np.log(4 / 2) + 1)


def test_make_embedder_names_and_errors():
    assert make_embedder("hashed-tfidf", 128).name == "hashed-tfidf-128"
    assert make_embedder("hashed-tfidf-64").dim == 64
    with pytest.raises(UserError, match="unknown embedding"):
        make_embedder("word2vec")


@pytest.mark.skipif(importlib.util.find_spec("sentence_transformers") is not None,
                    reason="sentence-transformers is installed here")
def test_without_sentence_transformers_auto_is_hashed_tfidf_and_asking_for_one_is_a_user_error():
    assert make_embedder("auto", 256).name == "hashed-tfidf-256"
    with pytest.raises(UserError, match="pip install sentence-transformers"):
        make_embedder("sentence-transformer")
