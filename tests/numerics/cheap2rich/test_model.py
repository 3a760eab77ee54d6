import numpy as np

from numerics.cheap2rich.model import FrontModel, derivatives, high_fidelity, random_front, simulate


def test_derivatives_are_second_order_on_the_ring():
    x = np.arange(256) * (2 * np.pi / 256)
    ux, uxx = derivatives(np.sin(2 * x))
    assert np.max(np.abs(ux - 2 * np.cos(2 * x))) < 1e-3
    assert np.max(np.abs(uxx + 4 * np.sin(2 * x))) < 2e-3


def test_the_front_travels_and_the_forcing_changes_the_trajectory():
    u0 = random_front(64, np.random.default_rng(0))
    low = simulate(FrontModel(), u0, steps=300)
    high = simulate(high_fidelity(), u0, steps=300)
    assert np.argmax(np.correlate(np.tile(low[-1], 2), low[0], "valid")[:64]) != 0  # moved round the ring
    assert np.abs(high[-1] - low[-1]).mean() > 0.05
    assert 0 <= high.mean() <= 1


def test_the_high_fidelity_model_adds_exactly_its_discrepancy_terms():
    u = random_front(64, np.random.default_rng(1))
    model = high_fidelity(injectors=3, modulation=0.8, loss=0.3)
    added = model.rhs(u) - FrontModel().rhs(u)
    assert np.allclose(added, 0.8 * np.cos(3 * model.x) * u - 0.3 * u)
