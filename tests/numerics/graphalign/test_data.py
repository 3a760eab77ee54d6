import numpy as np
import pytest

from numerics.graphalign.data import make_pairs, noisy_copy, real_graph


def test_noise_free_copy_is_an_exact_relabelling():
    pair = make_pairs(1, n=30, degree=4, noise=0.0, seed=1)[0]
    p = pair.target
    assert np.array_equal(pair.copy[np.ix_(p, p)], pair.source)


def test_noise_flips_the_stated_number_of_edges():
    source = make_pairs(1, n=40, degree=6, noise=0.0, seed=2)[0].source
    pair = noisy_copy(source, 0.25, np.random.default_rng(0))
    unpermuted = pair.copy[np.ix_(pair.target, pair.target)]
    removed = ((source > 0) & (unpermuted == 0)).sum() // 2
    added = ((source == 0) & (unpermuted > 0)).sum() // 2
    assert removed == added == round(0.25 * source.sum() / 2)
    assert unpermuted.sum() == source.sum()


def test_real_graphs_ship_with_networkx():
    assert real_graph("karate").shape == (34, 34)
    with pytest.raises(ValueError, match="unknown real graph"):
        real_graph("facebook")
