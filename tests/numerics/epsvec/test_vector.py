import numpy as np
import pytest

from numerics.epsvec.corpus import encode_example, private_sessions
from numerics.epsvec.decode import residual
from numerics.epsvec.vector import contributions, example_means, public_mean
from numerics.fixture.evaluate import load_fixture


def test_each_example_is_centred_and_clipped_to_norm_c():
    means = np.array([[3.0, 4.0], [0.3, 0.4], [1.0, 0.0]])
    data = contributions(means, prior=np.array([0.0, 0.0]), clip=1.0)
    assert np.allclose(np.linalg.norm(data.clipped, axis=1), [1.0, 0.5, 1.0])
    assert np.allclose(data.clipped[0], [0.6, 0.8]) and data.clipped_share == pytest.approx(1 / 3)
    assert np.allclose(contributions(means, np.array([1.0, 0.0]), 10.0).clipped[2], [0.0, 0.0])


def test_the_release_is_the_clipped_sum_plus_gaussian_noise_over_n():
    data = contributions(np.eye(4)[:3] * 2, prior=np.zeros(4), clip=1.0)
    rng = np.random.default_rng(0)
    assert np.allclose(data.noisy_means(0.0, 1, rng)[0], [1 / 3, 1 / 3, 1 / 3, 0])
    draws = data.noisy_means(6.0, 20000, rng)
    assert draws.mean(axis=0) == pytest.approx([1 / 3, 1 / 3, 1 / 3, 0], abs=0.03)
    assert draws.std(axis=0) == pytest.approx([2.0] * 4, rel=0.03)  # sigma / n


def test_example_means_average_each_text_over_its_windows():
    model, texts = load_fixture(), private_sessions(3, seed=0)
    means = example_means(model, texts, layer=1)
    expected = residual(model, encode_example(texts[1], 64), 1).mean(dim=(0, 1)).double().numpy()
    assert means.shape == (3, model.config.d_model) and np.allclose(means[1], expected, atol=1e-5)
    assert public_mean(model, 4, layer=1, seed=0).shape == (model.config.d_model,)
