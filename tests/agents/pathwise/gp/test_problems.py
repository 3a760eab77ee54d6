"""Every AHD problem has a grammar; its baselines' trees compute what the baselines compute."""

import numpy as np
import pytest

from agents.pathwise.gp import tree as trees
from agents.pathwise.gp.problems import GRAMMARS, grammar_for
from benchmarks.ahd.registry import PROBLEMS


def load(code: str, name: str):
    namespace: dict = {}
    exec(compile(code, "candidate.py", "exec"), namespace)
    return namespace[name]


def test_every_registered_problem_has_a_grammar_with_a_seed_tree():
    assert set(GRAMMARS) == set(PROBLEMS)
    for name, grammar in GRAMMARS.items():
        assert grammar.seeds and set(grammar.seeds) <= set(grammar.problem.baselines), name
        assert grammar.vector_terminals(), name


def test_best_fit_tree_chooses_as_best_fit_does():
    grammar = grammar_for("bpp_online")
    problem = grammar.problem
    rendered = load(grammar.render(grammar.seeds["best_fit"]), problem.function_name)
    classic = load(problem.baselines["best_fit"], problem.function_name)
    rng = np.random.default_rng(0)
    for _ in range(20):
        bins = np.append(rng.uniform(10, 100, 7), 100.0)
        item = float(rng.uniform(1, 10))
        assert np.argmax(rendered(item, bins)) == np.argmax(classic(item, bins))


def test_nearest_neighbour_tree_chooses_the_nearest_node():
    grammar = grammar_for("tsp_construct")
    choose = load(grammar.render(grammar.seeds["nearest_neighbour"]), grammar.problem.function_name)
    points = np.random.default_rng(1).random((9, 2))
    distances = np.linalg.norm(points[:, None] - points[None], axis=2)
    unvisited = np.arange(2, 9)
    assert choose(0, 1, unvisited, distances) == unvisited[np.argmin(distances[0, unvisited])]


@pytest.mark.parametrize("name", sorted(GRAMMARS))
def test_a_tree_of_every_terminal_renders_and_runs(name):
    grammar = grammar_for(name)
    tree = grammar.names[0]
    for terminal in grammar.names[1:]:
        tree = ("add", tree, ("div", terminal, 2.0))
    code = grammar.render(tree)
    compile(code, "candidate.py", "exec")
    assert grammar.tree_of(code) == tree and "def pdiv" in code
    assert trees.text(tree) in code
