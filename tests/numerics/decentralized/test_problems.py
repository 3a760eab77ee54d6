import numpy as np
import pytest

from numerics.decentralized.problems import heterogeneous_problem


@pytest.mark.parametrize("kind", ["lsq", "logistic"])
def test_optimum_zeroes_the_summed_gradient(kind):
    problem = heterogeneous_problem(kind, 6, dim=4, seed=3)
    nodes = np.arange(6)
    optimum = problem.optimum(nodes)
    total = problem.gradients(np.tile(optimum, (6, 1))).sum(axis=0)
    assert np.linalg.norm(total) < 1e-6


def test_local_optima_disagree_with_heterogeneity():
    problem = heterogeneous_problem("lsq", 4, dim=3, heterogeneity=2.0, seed=0)
    local = [problem.optimum(np.array([i])) for i in range(4)]
    assert min(np.linalg.norm(local[0] - x) for x in local[1:]) > 0.1


def test_gradient_matches_finite_differences():
    problem = heterogeneous_problem("logistic", 2, dim=3, seed=1)
    x = np.random.default_rng(0).normal(size=(2, 3))

    def loss(point):
        margins = problem.targets[0] * (problem.features[0] @ point)
        return np.logaddexp(0, -margins).mean() + 0.5 * problem.l2 * point @ point

    numeric = [(loss(x[0] + 1e-6 * e) - loss(x[0] - 1e-6 * e)) / 2e-6 for e in np.eye(3)]
    assert np.allclose(problem.gradients(x)[0], numeric, atol=1e-6)
