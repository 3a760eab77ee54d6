import numpy as np

from numerics.reprl.mdp import random_mdp, suboptimality
from numerics.reprl.planners import (PLANNERS, analysis_samples, analysis_total, naive_replicable_planning,
                                     rounded_model)

MDP = random_mdp(4, 3, 2, seed=0)


def _pair(planner, n, shared):
    return [PLANNERS[planner](MDP, n, 0.1, 0.1, shared, np.random.default_rng([shared, run])) for run in (0, 1)]


def test_every_planner_replicates_at_its_analysis_size_and_is_epsilon_optimal():
    for planner in PLANNERS:
        n = analysis_samples(planner, 0.1, 0.1, 4, 3, 2)
        for shared in range(5):
            (first, _), (second, _) = _pair(planner, n, shared)
            assert np.array_equal(first, second) and suboptimality(MDP, first) <= 0.1, planner


def test_fixed_planners_use_n_per_triple_and_ours_far_fewer_than_its_cap():
    n = analysis_samples("ours", 0.1, 0.1, 4, 3, 2)
    (_, used), _ = _pair("ours", n, 0)
    assert used < 0.01 * n * 24
    assert _pair("fixed", 1000, 0)[0][1] == _pair("naive", 1000, 0)[0][1] == 1000 * 24


def test_the_shared_randomness_picks_among_tied_actions():
    """Different shared seeds choose differently between the tied optima; the samples do not decide."""
    n = analysis_samples("ours", 0.1, 0.1, 4, 3, 2)
    policies = {tuple(_pair("ours", n, shared)[0][0].ravel()) for shared in range(8)}
    assert len(policies) > 1


def test_few_samples_break_replication_on_tied_instances():
    for planner in PLANNERS:
        agree = sum(np.array_equal(*(p for p, _ in _pair(planner, 64, shared))) for shared in range(20))
        assert agree < 12, planner


def test_rounded_model_has_distribution_rows():
    offsets = np.random.default_rng(0).uniform(0, 1, MDP.transitions.shape)
    model = rounded_model(MDP, 1000, 0.1, offsets, np.random.default_rng(1))
    assert np.allclose(model.transitions.sum(axis=-1), 1) and model.transitions.min() >= 0
    assert naive_replicable_planning(MDP, 1000, 0.1, 0.1, 3, np.random.default_rng(2))[0].shape == (2, 4)


def test_analysis_totals_order_the_planners():
    totals = {p: [analysis_total(p, 0.1, 0.1, s, 3, 2) for s in (8, 16)] for p in PLANNERS}
    growth = {p: t[1] / t[0] for p, t in totals.items()}
    assert growth["ours"] < 5 < growth["fixed"] < 10 < 100 < growth["naive"]
    assert totals["ours"][0] < totals["fixed"][0] < totals["naive"][0]
