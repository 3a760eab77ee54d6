import numpy as np
from threadpoolctl import threadpool_info

from memory.qmemory.dense import DenseIndex
from memory.qmemory.embedding import HashedTfidfEmbedder


def blas_threads():
    return {lib["num_threads"] for lib in threadpool_info() if lib["user_api"] == "blas"}


def test_blas_is_capped_during_the_product_only_and_the_cap_changes_no_result():
    embedder = HashedTfidfEmbedder(64)
    raw = embedder.embed([f"tile {i} buffer {i % 7}" for i in range(300)])
    capped = DenseIndex(64, embedder.column_weights, blas_threads=1)
    free = DenseIndex(64, embedder.column_weights, blas_threads=None)
    for index in (capped, free):
        index.add(np.arange(1, 301), np.zeros(300, dtype=np.int8), raw)
    before = blas_threads()
    with capped._thread_limit():
        assert blas_threads() == {1}
    assert blas_threads() == before
    query = embedder.embed(["tile 3 buffer"])[0]
    assert [a.tolist() for a in capped.search(query, 10)] == [a.tolist() for a in free.search(query, 10)]
