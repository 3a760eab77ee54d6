"""GP variation: random trees, every operator within the bloat limits, children differ from parents."""

import random

import pytest

from agents.pathwise.gp import tree as trees
from agents.pathwise.gp import variation
from agents.pathwise.gp.problems import grammar_for

GRAMMAR = grammar_for("bpp_online")
PARENTS = [("neg", "g"), ("sub", ("mul", 0.5, "r"), ("lte", "g", 0.1))]


def test_ramped_trees_read_a_vector_terminal_and_vary():
    made = [variation.ramped(random.Random(seed), GRAMMAR, {}).tree for seed in range(30)]
    assert len(set(made)) > 20
    assert all(trees.terminals(t) & set(GRAMMAR.vector_terminals()) for t in made)
    assert all(variation.within_limits(t) for t in made)


@pytest.mark.parametrize("operation", [*variation.OPERATIONS, variation.NEW])
def test_every_operator_makes_a_new_child_within_the_limits(operation):
    for seed in range(15):
        child = variation.vary(operation, random.Random(seed), GRAMMAR, PARENTS, {})
        assert variation.within_limits(child.tree), (operation, child)
        assert operation == variation.NEW or child.tree not in PARENTS, (operation, child)
        assert child.detail
        GRAMMAR.render(child.tree)


def test_crossover_grafts_material_of_the_second_parent():
    children = [variation.vary("crossover", random.Random(s), GRAMMAR, PARENTS, {}).tree for s in range(20)]
    assert any(trees.terminals(c) & {"r"} and "neg" in trees.primitives(c) for c in children)


def test_hoist_shrinks_and_semantic_mutation_keeps_the_parent():
    big = PARENTS[1]
    assert all(trees.size(variation.vary("hoist", random.Random(s), GRAMMAR, [big], {}).tree) < trees.size(big)
               for s in range(10))
    child = variation.semantic_mutation(random.Random(3), GRAMMAR, [big], {}).tree
    assert child[0] == "add" and child[1] == big


def test_bloat_limits_are_never_exceeded_over_many_generations():
    rng, pool = random.Random(0), list(PARENTS)
    for _ in range(300):
        operation = rng.choice(list(variation.OPERATIONS))
        parents = rng.sample(pool, min(len(pool), variation.OPERATIONS[operation].arity))
        pool.append(variation.vary(operation, rng, GRAMMAR, parents, {}).tree)
    assert all(variation.within_limits(t) for t in pool)


def test_weights_bias_the_primitives_of_new_subtrees():
    favoured = {"e": 50.0}
    made = [variation.random_leaf(random.Random(s), GRAMMAR, favoured) for s in range(100)]
    assert made.count("e") > 70


def test_perturb_grafts_a_subtree_within_the_limits():
    child = variation.perturb(random.Random(1), GRAMMAR, PARENTS[0], {})
    assert child.tree != PARENTS[0] and variation.within_limits(child.tree)
