"""Population selection deduplicates by code and by score; perturbation decays over the budget."""

from agents.pathwise.context import PathWiseConfig, select_population
from memory.entailment.graph import HeuristicNode


def test_population_is_best_first_without_repeated_code_or_score():
    nodes = [HeuristicNode("a", "c1", "", score=3.0), HeuristicNode("b", "c1", "", score=2.0),
             HeuristicNode("c", "c2", "", score=2.0), HeuristicNode("d", "c3", "", score=1.0),
             HeuristicNode("e", "c4", "", failure="crash"), HeuristicNode("f", "c5", "", score=4.0)]
    assert select_population(nodes, 2) == ["d", "b"]
    assert select_population(nodes, 10) == ["d", "b", "f"]  # a repeats b's code, c repeats b's score


def test_perturbation_probability_decays_to_zero(tmp_path, monkeypatch):
    from agents.pathwise.context import SearchContext

    config = PathWiseConfig(problem="kp_construct", budget=100, perturbation=0.4)
    ctx = SearchContext(config, roles=None, workdir=tmp_path)
    assert ctx.perturb_probability(0) == 0.4
    assert abs(ctx.perturb_probability(50) - 0.2) < 1e-12
    assert ctx.perturb_probability(100) == 0.0
    assert ctx.rng(1, 2).random() == ctx.rng(1, 2).random() != ctx.rng(2, 1).random()
