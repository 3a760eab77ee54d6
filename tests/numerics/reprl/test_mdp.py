import itertools

import numpy as np
import pytest

from numerics.reprl.mdp import (backward_induction, greedy, policy_values, random_mdp, sample_counts,
                                suboptimality)


def _q(mdp, h, values):
    return mdp.rewards[h] + mdp.transitions[h] @ values[h + 1]


def test_tied_instances_have_exact_ties_gaps_and_valid_rewards():
    mdp = random_mdp(6, 4, 3, seed=1, tied=2, gap=0.4)
    assert np.allclose(mdp.transitions.sum(axis=-1), 1) and mdp.rewards.min() >= 0 and mdp.rewards.max() <= 1
    values = backward_induction(mdp)[0]
    for h in range(mdp.horizon):
        gaps = np.sort(_q(mdp, h, values).max(axis=1, keepdims=True) - _q(mdp, h, values), axis=1)
        assert np.allclose(gaps[:, :2], 0, atol=1e-12) and (gaps[:, 2:] <= 0.4 + 1e-12).all()
        assert (gaps[:, 2] > 1e-6).all()  # only two actions tie


def test_untied_instances_have_a_unique_best_action():
    mdp = random_mdp(5, 3, 2, seed=2, tied=1)
    values = backward_induction(mdp)[0]
    gaps = np.sort(_q(mdp, 0, values).max(axis=1, keepdims=True) - _q(mdp, 0, values), axis=1)
    assert (gaps[:, 1] > 1e-6).all()


def test_backward_induction_beats_every_deterministic_policy():
    mdp = random_mdp(2, 2, 2, seed=3, tied=1)
    values, policy = backward_induction(mdp)
    assert np.allclose(policy_values(mdp, policy), values)
    for choice in itertools.product(range(2), repeat=4):
        other = np.array(choice).reshape(2, 2)
        assert (policy_values(mdp, other)[0] <= values[0] + 1e-12).all()
    assert suboptimality(mdp, policy) == pytest.approx(0, abs=1e-12)
    assert suboptimality(mdp, 1 - policy) > 0


def test_counts_are_n_generator_calls():
    mdp = random_mdp(4, 2, 1, seed=4, tied=1)
    counts = sample_counts(mdp, 0, 10**6, np.random.default_rng(0))
    assert counts.shape == (4, 2, 4) and (counts.sum(axis=-1) == 10**6).all()
    assert np.abs(counts / 10**6 - mdp.transitions[0]).max() < 0.005


def test_greedy_breaks_ties_by_priority():
    q = np.array([[1.0, 2.0, 2.0], [3.0, 0.0, 3.0]])
    assert greedy(q).tolist() == [1, 0]
    assert greedy(q, np.array([[0, 1, 2], [2, 1, 0]])).tolist() == [2, 0]
    assert greedy(q, np.array([[0, 2, 1], [0, 1, 2]])).tolist() == [1, 2]
