import numpy as np

from numerics.reprl.mdp import random_mdp, suboptimality
from numerics.reprl.planners import naive_replicable_planning, replicable_backward_induction, rounded_model
from numerics.reprl.queries import naive_samples, ours_samples

MDP = random_mdp(4, 3, 2, seed=0)


def _pair(plan, n, shared):
    return [plan(MDP, n, 0.1, shared, np.random.default_rng([shared, run])) for run in (0, 1)]


def test_ours_replicates_at_its_analysis_size_and_is_epsilon_optimal():
    n = ours_samples(0.1, 0.1, 4, 3, 2)
    for shared in range(10):
        first, second = _pair(replicable_backward_induction, n, shared)
        assert np.array_equal(first, second) and suboptimality(MDP, first) <= 0.1


def test_naive_replicates_at_its_analysis_size_and_is_epsilon_optimal():
    n = naive_samples(0.1, 0.1, 4, 3, 2)
    for shared in range(5):
        first, second = _pair(naive_replicable_planning, n, shared)
        assert np.array_equal(first, second) and suboptimality(MDP, first) <= 0.1


def test_the_shared_randomness_picks_among_tied_actions():
    """Different shared seeds choose differently between the tied optima; the samples do not decide."""
    n = ours_samples(0.1, 0.1, 4, 3, 2)
    policies = {tuple(_pair(replicable_backward_induction, n, shared)[0].ravel()) for shared in range(8)}
    assert len(policies) > 1


def test_few_samples_break_replication_on_tied_instances():
    agree = sum(np.array_equal(*_pair(replicable_backward_induction, 64, shared)) for shared in range(20))
    assert agree < 10


def test_rounded_model_has_distribution_rows():
    offsets = np.random.default_rng(0).uniform(0, 1, MDP.transitions.shape)
    model = rounded_model(MDP, 1000, 0.1, offsets, np.random.default_rng(1))
    assert np.allclose(model.transitions.sum(axis=-1), 1) and model.transitions.min() >= 0
