import numpy as np
import pytest

from numerics.reprl.adaptive import adaptive_queries, cap, expected_samples, radius, rounds

TRUTH = np.linspace(0.1, 0.9, 200)


def _bernoulli(rng):
    return lambda active, extra: rng.binomial(extra, TRUTH[active]).astype(float)


def test_rounds_double_up_to_the_cap():
    assert rounds(100) == [16, 32, 64, 100] and rounds(128) == [16, 32, 64, 128] and rounds(8) == [8]


def test_two_runs_with_shared_offsets_agree_and_stay_accurate():
    offsets = np.random.default_rng(0).uniform(0, 1, TRUTH.size)
    runs = [adaptive_queries(_bernoulli(np.random.default_rng(seed)), TRUTH.size, 1.0, 0.05, offsets, 2**24, 1e-3)
            for seed in (1, 2)]
    (first, used), (second, _) = runs
    assert np.mean(first == second) >= 0.99 and np.abs(first - TRUTH).max() <= 0.05
    assert used.max() <= 2**24 and used.mean() < 0.1 * 2**24


def test_a_truth_on_a_grid_point_runs_to_the_cap():
    rng = np.random.default_rng(3)  # offset 0.5 of a 0.05 grid puts a grid point at 0.525
    answers, used = adaptive_queries(lambda active, extra: rng.binomial(extra, [0.525]).astype(float), 1, 1.0,
                                     0.05, np.array([0.5]), 4096, 1e-3)
    assert used[0] == 4096 and abs(answers[0] - 0.525) == pytest.approx(0.025)


def test_no_spread_needs_only_the_first_round():
    answers, used = adaptive_queries(lambda a, extra: np.full(a.size, 0.31 * extra), 3, 0.0, 0.05,
                                     np.zeros(3), 2**20, 1e-3)
    assert used.tolist() == [16, 16, 16] and np.allclose(answers, 0.325)


def test_cap_meets_the_radius_target_and_expected_samples_grow_linearly_in_queries():
    n = cap(24, 2.0, 0.025, 0.1)
    assert radius(2.0, n, len(rounds(n)), 0.1 / 96) <= 0.1 * 0.025 / (16 * 24) * (1 + 1e-9)
    small, large = (expected_samples(k, 2.0, 0.025, 0.1, cap(k, 2.0, 0.025, 0.1)) for k in (24, 96))
    assert small < 0.1 * n and large / small == pytest.approx(4, rel=0.35)
