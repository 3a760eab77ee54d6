"""Expression trees: text round trip, numpy rendering, protected functions, folding, paths."""

import numpy as np
import pytest

from agents.pathwise.gp import tree as trees
from agents.pathwise.gp.tree import pdiv

TREE = ("sub", ("neg", "g"), ("mul", 0.3, ("div", "e", "r")))


def test_text_and_parse_are_inverse():
    source = trees.text(TREE)
    assert source == "(sub (neg g) (mul 0.3 (div e r)))"
    assert trees.parse(source) == TREE


@pytest.mark.parametrize("bad", ["(foo g)", "(neg g", "(add g)", "g )", "(neg 1x)", ""])
def test_parse_refuses_what_is_not_a_tree(bad):
    with pytest.raises(ValueError):
        trees.parse(bad)


def test_numpy_expression_computes_what_evaluate_computes():
    values = {"g": np.array([0.5, 0.0, 0.2]), "e": np.array([1.0, 0.0, 0.0]), "r": np.array([0.0, 0.5, 1.0])}
    expression = trees.numpy_expression(TREE)
    rendered = eval(expression, {"np": np, "pdiv": pdiv}, dict(values))
    assert np.allclose(rendered, trees.evaluate(TREE, values))
    assert np.allclose(rendered, [-0.5 - 0.3, 0.0, -0.2])  # division by ~0 divides by 1


def test_protected_functions_stay_finite():
    assert np.allclose(pdiv(np.array([2.0, 2.0]), np.array([0.0, 4.0])), [2.0, 0.5])
    assert trees.evaluate(("sqrt", -4.0), {}) == 2.0
    assert np.all(trees.evaluate(("lte", "a", "b"), {"a": np.array([1.0, 3.0]), "b": np.array([2.0, 2.0])})
                  == [1.0, 0.0])


def test_size_depth_paths_and_replace():
    assert trees.size(TREE) == 8 and trees.depth(TREE) == 4
    assert len(list(trees.paths(TREE))) == trees.size(TREE)
    assert trees.at(TREE, (1, 1)) == ("div", "e", "r")
    assert trees.replace(TREE, (1, 1), "s") == ("sub", ("neg", "g"), ("mul", 0.3, "s"))
    assert trees.replace(TREE, (), "g") == "g"


def test_primitives_and_terminals():
    assert trees.primitives(TREE) == {"sub", "neg", "g", "mul", "const", "div", "e", "r"}
    assert trees.terminals(TREE) == {"g", "e", "r"}


def test_fold_replaces_constant_subtrees_by_their_value():
    assert trees.fold(("add", "g", ("mul", 2.0, ("neg", 0.25)))) == ("add", "g", -0.5)
    assert trees.fold(("div", 1.0, 0.0)) == 1.0  # protected division
    assert trees.fold(TREE) == TREE
