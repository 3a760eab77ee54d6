import math

import pytest

from numerics.epsvec.privacy import (analytic_sigma, classical_sigma, composed_epsilon, gdp_delta,
                                     per_release_sigma)


def test_the_analytic_sigma_reaches_delta_exactly_and_beats_the_classical_bound():
    sigma = analytic_sigma(0.5, 1e-5, sensitivity=2.0)
    assert gdp_delta(2.0 / sigma, 0.5) == pytest.approx(1e-5, rel=1e-6)
    assert gdp_delta(2.0 / (0.99 * sigma), 0.5) > 1e-5
    assert sigma < classical_sigma(0.5, 1e-5, 2.0) == pytest.approx(2 * math.sqrt(2 * math.log(1.25e5)) / 0.5)
    assert analytic_sigma(1.0, 1e-5, 1.0) == pytest.approx(3.73, abs=0.01)  # Balle and Wang's eps=1 figure
    assert classical_sigma(2.0, 1e-5, 1.0) is None and analytic_sigma(math.inf, 1e-5, 1.0) == 0.0


def test_noise_falls_with_epsilon_and_scales_with_the_sensitivity():
    sigmas = [analytic_sigma(e, 1e-5, 1.0) for e in (0.1, 1.0, 10.0)]
    assert sigmas == sorted(sigmas, reverse=True)
    assert analytic_sigma(1.0, 1e-5, 3.0) == pytest.approx(3 * sigmas[1])


def test_fresh_releases_compose_and_a_reused_one_costs_once():
    sigma = analytic_sigma(1.0, 1e-5, 1.0)
    assert composed_epsilon(sigma, 1.0, 1, 1e-5) == pytest.approx(1.0, rel=1e-6)
    spent = [composed_epsilon(sigma, 1.0, k, 1e-5) for k in (1, 10, 100)]
    assert spent[0] < spent[1] < spent[2]
    split = per_release_sigma(1.0, 1e-5, 1.0, 100)
    assert split == pytest.approx(10 * sigma) and composed_epsilon(split, 1.0, 100, 1e-5) == pytest.approx(1.0)


@pytest.mark.parametrize("epsilon, delta", [(0.0, 1e-5), (-1.0, 1e-5), (1.0, 0.0), (1.0, 1.0)])
def test_a_bad_budget_is_refused(epsilon, delta):
    with pytest.raises(ValueError, match="epsilon"):
        analytic_sigma(epsilon, delta, 1.0)
