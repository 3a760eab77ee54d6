import numpy as np
import pytest

from numerics.decentralized.topology import make_graph, metropolis_weights, spectral_gap


@pytest.mark.parametrize("kind", ["ring", "grid", "er"])
def test_metropolis_weights_are_doubly_stochastic(kind):
    weights = metropolis_weights(make_graph(kind, 16, p=0.3))
    assert np.allclose(weights.sum(axis=0), 1) and np.allclose(weights.sum(axis=1), 1)
    assert np.allclose(weights, weights.T) and (weights >= 0).all()


def test_spectral_gap_orders_topologies():
    ring = spectral_gap(metropolis_weights(make_graph("ring", 16)))
    dense = spectral_gap(metropolis_weights(make_graph("er", 16, p=0.8)))
    assert 0 < ring < dense <= 1


def test_unknown_kind_is_rejected():
    with pytest.raises(ValueError, match="unknown graph kind"):
        make_graph("star", 5)
