import numpy as np

from numerics.decentralized.aggregators import clipped, make_aggregator, mean, trimmed

OWN = np.array([0.0, 0.0])
DIFFS = np.array([[1.0, 2.0], [2.0, -1.0], [100.0, 100.0]])
WEIGHTS = np.array([0.25, 0.25, 0.25])


def test_without_trimming_all_reduce_to_linear_gossip():
    expected = mean(OWN, DIFFS, WEIGHTS)
    assert np.allclose(expected, [25.75, 25.25])
    assert np.allclose(trimmed(0)(OWN, DIFFS, WEIGHTS), expected)
    assert np.allclose(clipped(0)(OWN, DIFFS, WEIGHTS), expected)


def test_trimming_drops_the_extremes_per_coordinate():
    # one trimmed each side per coordinate leaves the middle value: x -> 2.0, y -> 2.0
    assert np.allclose(trimmed(1)(OWN, DIFFS, WEIGHTS), [0.5, 0.5])


def test_clipping_bounds_the_outlier_at_the_second_largest_norm():
    threshold = np.linalg.norm(DIFFS[1])
    result = clipped(1)(OWN, DIFFS, WEIGHTS)
    outlier = DIFFS[2] * threshold / np.linalg.norm(DIFFS[2])
    assert np.allclose(result, 0.25 * (DIFFS[0] + DIFFS[1] + outlier))


def test_make_aggregator_names():
    assert make_aggregator("mean", 3) is mean
