import numpy as np
import pytest

from numerics.cheap2rich.assimilate import DelayRegression, delay_features, evenly_spaced, filter_states, gain
from numerics.cheap2rich.model import high_fidelity, random_front, simulate


def test_delay_features_stack_the_history_and_a_constant():
    readings = np.arange(8.0).reshape(4, 2)
    features = delay_features(readings, lags=2)
    assert features.tolist()[0] == [0, 1, 0, 1, 1] and features.tolist()[3] == [6, 7, 4, 5, 1]


def test_the_gain_reproduces_the_readings_where_noise_is_small():
    sensors = evenly_spaced(64, 8, noise=1e-4)
    k = gain(64, sensors)
    assert np.allclose(k[sensors.indices], np.eye(8), atol=1e-3)


def test_filtering_with_the_true_model_tracks_the_truth():
    truth = high_fidelity()
    trajectory = simulate(truth, random_front(64, np.random.default_rng(3)), steps=400)
    sensors = evenly_spaced(64, 6, noise=0.01)
    analysed = filter_states(truth, sensors.read(trajectory, np.random.default_rng(4)), sensors)
    late = slice(40, None)
    assert np.linalg.norm(analysed[late] - trajectory[late]) < 0.05 * np.linalg.norm(trajectory[late])
    assert np.linalg.norm(analysed[0] - trajectory[0]) > 0.1 * np.linalg.norm(trajectory[0])  # started wrong


def test_the_regression_must_be_fitted_first():
    with pytest.raises(RuntimeError, match="fit"):
        DelayRegression().predict(np.zeros((3, 2)))
