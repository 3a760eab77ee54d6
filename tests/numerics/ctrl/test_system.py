import numpy as np

from numerics.ctrl.system import LinearSystem, cost_variance, sample_path, transition


def test_the_closed_form_cost_matches_simulation():
    system = LinearSystem(sigma=0.7)
    gain, rng = 2.0, np.random.default_rng(0)
    steps, paths = 2000, 4000
    dt = system.horizon / steps
    factor, variance = transition(system.closed_loop(gain), system.sigma, np.array(dt))
    x, total = np.full(paths, system.x0), np.zeros(paths)
    for _ in range(steps):
        nxt = factor * x + np.sqrt(variance) * rng.standard_normal(paths)
        total += (system.q + system.r * gain**2) * 0.5 * (x**2 + nxt**2) * dt
        x = nxt
    assert abs(total.mean() - system.expected_cost(gain)) < 0.03 * system.expected_cost(gain)


def test_the_best_gain_is_a_minimum_and_stabilises():
    system = LinearSystem()
    best = system.best_gain()
    assert system.closed_loop(best) < 0
    assert system.expected_cost(best) < min(system.expected_cost(best * 0.9), system.expected_cost(best * 1.1))


def test_paths_are_exact_samples_of_the_transition_law():
    system, rng = LinearSystem(sigma=1.0), np.random.default_rng(1)
    finals = np.array([sample_path(system, 2.0, np.array([0.3, 1.0]), rng)[-1] for _ in range(4000)])
    factor, variance = transition(system.closed_loop(2.0), 1.0, np.array(1.0))
    assert abs(finals.mean() - factor * system.x0) < 0.03 and abs(finals.var() - variance) < 0.03


def test_the_cost_variance_grows_with_the_noise():
    low = cost_variance(LinearSystem(sigma=0.5), 3.0, np.random.default_rng(0), paths=500, steps=200)
    high = cost_variance(LinearSystem(sigma=1.0), 3.0, np.random.default_rng(0), paths=500, steps=200)
    assert high > 4 * low
