import math

import numpy as np
import pytest

from numerics.reprl.queries import (naive_samples, naive_width, ours_samples, ours_width, per_query_samples,
                                    replicable_round)


def test_rounding_stays_within_half_a_cell_and_agrees_inside_a_cell():
    rng = np.random.default_rng(0)
    means, offsets = rng.uniform(-3, 3, 1000), rng.uniform(0, 1, 1000)
    rounded = replicable_round(means, 0.2, offsets)
    assert np.abs(rounded - means).max() <= 0.1 + 1e-12
    inside = rounded + rng.uniform(-0.099, 0.099, 1000)  # every point of a cell rounds to its centre
    assert np.allclose(replicable_round(inside, 0.2, offsets), rounded)


def test_disagreement_over_shared_offsets_is_distance_over_width():
    offsets = np.random.default_rng(1).uniform(0, 1, 200_000)
    first = replicable_round(np.full_like(offsets, 0.537), 0.1, offsets)
    second = replicable_round(np.full_like(offsets, 0.537 + 0.013), 0.1, offsets)
    assert np.mean(first != second) == pytest.approx(0.13, abs=0.005)


def test_sample_sizes_follow_the_derivation():
    s, a, h, eps, rho = 8, 3, 2, 0.1, 0.1
    closed = 32 * s**2 * a**2 * h**6 * math.log(8 * s * a * h / rho) / (rho**2 * eps**2)
    assert ours_samples(eps, rho, s, a, h) == pytest.approx(closed, rel=1e-9)
    naive = 128 * s**6 * a**2 * h**6 * math.log(8 * s * s * a * h / rho) / (rho**2 * eps**2)
    assert naive_samples(eps, rho, s, a, h) == pytest.approx(naive, rel=1e-9)
    assert ours_width(eps, h) == eps / 4 and naive_width(eps, s, h) == eps / 128
    assert per_query_samples(10, 1.0, 0.5, 0.2) > per_query_samples(5, 1.0, 0.5, 0.2)
