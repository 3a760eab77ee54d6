"""A grammar renders a tree as a heuristic that computes only what the tree reads, and reads it back."""

import numpy as np

from agents.pathwise.gp.problems import grammar_for


def test_render_defines_only_the_terminals_the_tree_reads():
    grammar = grammar_for("bpp_online")
    code = grammar.render(("neg", "g"))
    assert "g = (bins_remain_cap - item) / cap" in code and "cap = " in code
    assert "s = " not in code and "def pdiv" not in code
    assert "Tree: (neg g)" in code


def test_a_tree_without_vector_terminals_still_returns_one_score_per_bin():
    grammar = grammar_for("bpp_online")
    namespace: dict = {}
    exec(grammar.render(("mul", "s", 2.0)), namespace)
    scores = namespace["priority"](10.0, np.array([50.0, 100.0, 100.0]))
    assert np.allclose(scores, [0.2, 0.2, 0.2])


def test_tree_of_reads_baselines_and_refuses_foreign_code():
    grammar = grammar_for("bpp_online")
    assert grammar.tree_of(grammar.problem.baselines["best_fit"]) == ("neg", "g")
    assert grammar.tree_of(grammar.render(("add", "g", "e"))) == ("add", "g", "e")
    assert grammar.tree_of("def priority(item, bins_remain_cap):\n    return bins_remain_cap\n") is None
    assert grammar.tree_of('"""\nTree: (add g zz)\n"""') is None  # a terminal the grammar does not know
    assert grammar.tree_of('"""\nTree: (add g\n"""') is None
