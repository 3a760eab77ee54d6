import numpy as np

from numerics.ctrl.learner import DriftMLE, Episode, certainty_equivalent_gain, fixed_schedule, random_schedule
from numerics.ctrl.system import LinearSystem, sample_path


def test_schedules_lie_in_the_horizon_and_are_sorted():
    random = random_schedule(7, 5.0, np.random.default_rng(0))
    assert np.all(np.diff(random) >= 0) and 0 <= random[0] and random[-1] <= 5.0
    assert fixed_schedule(5, 5.0).tolist() == [1.0, 2.0, 3.0, 4.0, 5.0]


def test_the_marginal_mle_recovers_the_drift():
    system, rng = LinearSystem(a=0.8, sigma=0.5), np.random.default_rng(2)
    learner = DriftMLE(system)
    for gain in (1.5, 2.0, 2.5) * 40:
        times = random_schedule(5, system.horizon, rng)
        learner.episodes.append(Episode(gain, times, sample_path(system, gain, times, rng)))
    assert abs(learner.estimate() - 0.8) < 0.1
    assert DriftMLE(system).estimate() == 0.0  # no data: the prior guess


def test_certainty_equivalence_with_the_true_drift_is_the_best_gain():
    system = LinearSystem()
    assert abs(certainty_equivalent_gain(system, system.a) - system.best_gain()) < 1e-6
