import numpy as np

from numerics.graphalign.data import make_pairs
from numerics.graphalign.features import structural_features


def test_features_are_permutation_equivariant():
    pair = make_pairs(1, n=30, degree=5, noise=0.0, seed=3)[0]
    source, copy = structural_features(pair.source), structural_features(pair.copy)
    assert np.allclose(copy[pair.target], source, atol=1e-4)
    assert source.shape == (30, 10)
