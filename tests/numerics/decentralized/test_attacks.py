import numpy as np
import pytest

from numerics.decentralized.attacks import byzantine_messages

HONEST = np.array([[1.0, 2.0], [3.0, 4.0]])


def test_sign_flip_and_alie_values():
    rng = np.random.default_rng(0)
    assert np.allclose(byzantine_messages("sign_flip", HONEST, 2, rng, 2.0), [[-4.0, -6.0]] * 2)
    assert np.allclose(byzantine_messages("alie", HONEST, 1, rng, 1.0), [[1.0, 2.0]])


def test_gaussian_is_centred_noise():
    rng = np.random.default_rng(0)
    messages = byzantine_messages("gaussian", HONEST, 4000, rng, 10.0)
    assert np.allclose(messages.mean(axis=0), [2.0, 3.0], atol=0.5)
    assert 9.5 < messages.std() < 10.5


def test_unknown_attack():
    with pytest.raises(ValueError):
        byzantine_messages("nope", HONEST, 1, np.random.default_rng(0), 1.0)
