import math

import numpy as np
import pytest
import torch

from numerics.epsvec.pipeline import SetupConfig, build, fidelity, fresh_vectors, generate, project, reused_vector


@pytest.fixture(scope="module")
def setup():
    return build(SetupConfig(examples=40, public=40, held_out=40, length=24))


def test_projection_only_shortens_rows_beyond_the_radius():
    rows = project(np.array([[3.0, 4.0], [0.3, 0.4]]), 1.0)
    assert np.allclose(rows, [[0.6, 0.8], [0.3, 0.4]])


def test_reused_and_fresh_vectors_spend_the_same_total_budget(setup):
    vector, sigma = reused_vector(setup, 1.0, np.random.default_rng(0))
    vectors, fresh = fresh_vectors(setup, 1.0, 16, np.random.default_rng(0))
    assert vector.shape == (setup.model.config.d_model,) and vectors.shape == (16, setup.model.config.d_model)
    assert fresh == pytest.approx(4 * sigma) and np.linalg.norm(vectors, axis=1).max() <= setup.data.clip + 1e-9
    exact, none = reused_vector(setup, math.inf, np.random.default_rng(0))
    assert none == 0.0 and np.allclose(exact, project(setup.data.clipped.mean(axis=0), setup.data.clip))


def test_the_private_vector_moves_samples_towards_the_private_sessions(setup):
    exact, _ = reused_vector(setup, math.inf, np.random.default_rng(0))
    steered = fidelity(setup, generate(setup, exact, 40, torch.Generator().manual_seed(0)))
    plain = fidelity(setup, generate(setup, 0 * exact, 40, torch.Generator().manual_seed(0)))
    assert steered["private_share"] > plain["private_share"] + 0.3
    assert steered["bigram_js"] < plain["bigram_js"] - 0.1
