import numpy as np

from numerics.cheap2rich.library import evaluate_terms, learn_discrepancy, stlsq, term_names
from numerics.cheap2rich.model import FrontModel, high_fidelity, random_front, simulate


def test_library_terms_are_named_and_evaluated():
    x = np.linspace(0, 2 * np.pi, 32, endpoint=False)
    u = np.full(32, 0.5)
    names = ["u^2", "sin(2x)", "u*cos(3x)"]
    theta = evaluate_terms(u, x, names)
    assert theta.shape == (32, 3)
    assert np.allclose(theta[:, 0], 0.25) and np.allclose(theta[:, 1], np.sin(2 * x))
    assert np.allclose(theta[:, 2], 0.5 * np.cos(3 * x))
    assert len(set(term_names())) == len(term_names())


def test_stlsq_drops_the_terms_that_are_not_there():
    rng = np.random.default_rng(0)
    theta = rng.standard_normal((400, 6))
    target = theta @ np.array([0.0, 1.5, 0.0, -0.7, 0.0, 0.0]) + 1e-3 * rng.standard_normal(400)
    xi = stlsq(theta, target, threshold=0.1)
    assert np.flatnonzero(xi).tolist() == [1, 3]
    assert np.allclose(xi[[1, 3]], [1.5, -0.7], atol=1e-2)


def test_the_discrepancy_of_exact_rates_is_the_injector_forcing():
    truth = high_fidelity()
    states = simulate(truth, random_front(64, np.random.default_rng(2)), steps=300)
    learned = learn_discrepancy(states, truth.rhs(states), FrontModel())
    assert set(learned) == {"u", "u*cos(3x)"}
    assert abs(learned["u"] + 0.3) < 1e-6 and abs(learned["u*cos(3x)"] - 0.8) < 1e-6
