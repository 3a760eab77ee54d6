from agents.rpg.localize_offline import PropagationConfig, propagate, rank, seed_scores
from tools.rpg.workspace import RPGWorkspace


def test_planted_bugs_rank_their_files_first(demo, demo_rpg):
    repo, instances = demo
    workspace = RPGWorkspace(demo_rpg, repo=repo)
    expected = {"demo__shop-1": "shop/pricing.py", "demo__shop-2": "shop/models.py", "demo__shop-3": "shop/models.py"}
    for instance in instances:
        units, files = rank(workspace, instance["problem_statement"])
        assert files[0] == expected[instance["instance_id"]]
    units, _ = rank(workspace, instances[0]["problem_statement"])
    assert units[0] == "shop/pricing.py:apply_discount"


def test_propagation_lifts_neighbours_of_strong_matches(demo, demo_rpg):
    workspace = RPGWorkspace(demo_rpg, repo=demo[0])
    seeds = {"shop/util.py:round_money": 1.0}
    flowed = propagate(workspace, seeds, PropagationConfig(steps=1))
    assert flowed["shop/pricing.py:apply_discount"] > 0 and flowed["shop/util.py:round_money"] == 1.0
    assert propagate(workspace, seeds, PropagationConfig(steps=0)) == seeds


def test_verbatim_names_get_a_bonus(demo, demo_rpg):
    workspace = RPGWorkspace(demo_rpg, repo=demo[0])
    with_bonus = seed_scores(workspace, "crash in empty_receipt", PropagationConfig())
    without = seed_scores(workspace, "crash in empty_receipt", PropagationConfig(name_bonus=0))
    assert with_bonus["shop/report.py:empty_receipt"] - without["shop/report.py:empty_receipt"] == 1.0
