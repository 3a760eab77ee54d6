"""Random trees and the variation operators of the GP search, under bloat control.

Initial trees are ramped half-and-half (Koza): depths 2 to 4, half grown, half full. Crossover swaps
subtrees, picking a function node nine times in ten (Koza's 90/10 rule). Mutations: a new random
subtree, geometric semantic mutation (a small multiple of a new random tree added to the parent), one
node swapped for another of the same arity, Gaussian steps on the constants, and hoist (the tree becomes
one of its own subtrees, which only shrinks it). Bloat control: constant folding,
and a child deeper than :data:`MAX_DEPTH` or larger than :data:`MAX_SIZE` is never made (a new attempt
is drawn; after :data:`ATTEMPTS` the smallest subtree of the first parent is hoisted).

``weights`` biases which primitives new subtrees use (the world-model critic's advice); every
primitive keeps a positive weight, so none is ever ruled out.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Callable

from agents.pathwise.gp import tree as trees
from agents.pathwise.gp.grammars import Grammar
from agents.pathwise.gp.tree import FUNCTIONS, Tree

MAX_DEPTH = 6
MAX_SIZE = 25
ATTEMPTS = 20
CONSTANT = "const"
"""The name under which ephemeral random constants are weighted."""
INTERNAL_SHARE = 0.9


@dataclass(frozen=True)
class Child:
    """A tree made by an operator and what the operator did, in words."""

    tree: Tree
    detail: str


def within_limits(tree: Tree) -> bool:
    """The bloat limits: depth at most :data:`MAX_DEPTH`, size at most :data:`MAX_SIZE`."""
    return trees.depth(tree) <= MAX_DEPTH and trees.size(tree) <= MAX_SIZE


def _weighted(rng: random.Random, names: list[str], weights: dict[str, float]) -> str:
    return rng.choices(names, [weights.get(name, 1.0) for name in names])[0]


def random_constant(rng: random.Random) -> float:
    return float(trees.constant_text(rng.uniform(-1.0, 1.0)))


def random_leaf(rng: random.Random, grammar: Grammar, weights: dict[str, float]) -> Tree:
    choice = _weighted(rng, [*grammar.names, CONSTANT], weights)
    return random_constant(rng) if choice == CONSTANT else choice


def random_tree(rng: random.Random, grammar: Grammar, depth: int, full: bool, weights: dict[str, float]) -> Tree:
    """A random tree of at most ``depth`` levels: every branch that deep when ``full``, else grown."""
    leaf_share = len(grammar.names) / (len(grammar.names) + len(FUNCTIONS))
    if depth <= 1 or (not full and rng.random() < leaf_share):
        return random_leaf(rng, grammar, weights)
    name = _weighted(rng, list(FUNCTIONS), weights)
    return (name, *(random_tree(rng, grammar, depth - 1, full, weights) for _ in range(FUNCTIONS[name].arity)))


def ramped(rng: random.Random, grammar: Grammar, weights: dict[str, float]) -> Child:
    """A ramped half-and-half tree (depth 2-4) that reads at least one vector terminal."""
    for _ in range(ATTEMPTS):
        depth, full = rng.randint(2, 4), rng.random() < 0.5
        tree = trees.fold(random_tree(rng, grammar, depth, full, weights))
        if trees.terminals(tree) & set(grammar.vector_terminals()):
            break
    return Child(tree, f"new random tree ({'full' if full else 'grown'}, depth {depth})")


def _pick(rng: random.Random, tree: Tree) -> trees.Path:
    """A node of ``tree``: a function node with probability :data:`INTERNAL_SHARE` when it has one."""
    every = list(trees.paths(tree))
    internal = [p for p in every if trees.is_function(trees.at(tree, p))]
    return rng.choice(internal if internal and rng.random() < INTERNAL_SHARE else every)


def crossover(rng: random.Random, grammar: Grammar, parents: list[Tree], weights: dict[str, float]) -> Child:
    """Subtree crossover: a subtree of the first parent replaced by a subtree of the second."""
    first, second = parents[0], parents[1 % len(parents)]
    where, donor = _pick(rng, first), trees.at(second, _pick(rng, second))
    return Child(trees.replace(first, where, donor), f"subtree crossover at {list(where)} with {trees.text(donor)}")


def subtree_mutation(rng: random.Random, grammar: Grammar, parents: list[Tree], weights: dict[str, float],
                     max_depth: int = 3) -> Child:
    """A random node replaced by a new grown tree of at most ``max_depth`` levels."""
    where = rng.choice(list(trees.paths(parents[0])))
    new = random_tree(rng, grammar, rng.randint(1, max_depth), False, weights)
    return Child(trees.replace(parents[0], where, new), f"subtree mutation at {list(where)} to {trees.text(new)}")


def semantic_mutation(rng: random.Random, grammar: Grammar, parents: list[Tree], weights: dict[str, float]) -> Child:
    """Geometric semantic mutation (Moraglio et al. 2012): the parent plus a small multiple of a new random tree,
    so the child ranks like the parent except where the new term breaks near ties."""
    step = float(trees.constant_text(rng.choice((-1.0, 1.0)) * 10 ** rng.uniform(-2.0, -0.3)))
    term = random_tree(rng, grammar, rng.randint(1, 3), False, weights)
    return Child(("add", parents[0], ("mul", step, term)), f"semantic mutation: + {step} * {trees.text(term)}")


def point_mutation(rng: random.Random, grammar: Grammar, parents: list[Tree], weights: dict[str, float]) -> Child:
    """One node swapped for another primitive of the same arity (a terminal for a terminal or constant)."""
    where = rng.choice(list(trees.paths(parents[0])))
    node = trees.at(parents[0], where)
    if trees.is_function(node):
        same = [n for n, f in FUNCTIONS.items() if f.arity == FUNCTIONS[node[0]].arity and n != node[0]]
        new: Tree = (_weighted(rng, same, weights), *node[1:])
        said = f"{node[0]} -> {new[0]}"
    else:
        new = random_leaf(rng, grammar, weights)
        said = f"{trees.text(node)} -> {trees.text(new)}"
    return Child(trees.replace(parents[0], where, new), f"point mutation at {list(where)}: {said}")


def constant_mutation(rng: random.Random, grammar: Grammar, parents: list[Tree], weights: dict[str, float]) -> Child:
    """Every constant moved by a Gaussian step (sd 0.1 + 20 % of its size); a point mutation without constants."""
    places = [p for p in trees.paths(parents[0]) if trees.is_constant(trees.at(parents[0], p))]
    if not places:
        return point_mutation(rng, grammar, parents, weights)
    tree = parents[0]
    for where in places:
        value = trees.at(tree, where)
        tree = trees.replace(tree, where, float(trees.constant_text(value + rng.gauss(0.0, 0.1 + 0.2 * abs(value)))))
    return Child(tree, f"constant mutation of {len(places)} constant(s)")


def hoist(rng: random.Random, grammar: Grammar, parents: list[Tree], weights: dict[str, float]) -> Child:
    """The tree replaced by one of its proper subtrees that still reads a vector terminal, when one does."""
    vectors = set(grammar.vector_terminals())
    inner = [p for p in trees.paths(parents[0]) if p and trees.terminals(trees.at(parents[0], p)) & vectors]
    where = rng.choice(inner) if inner else ()
    return Child(trees.at(parents[0], where), f"hoist of the subtree at {list(where)}")


Operator = Callable[[random.Random, Grammar, list[Tree], dict[str, float]], Child]


@dataclass(frozen=True)
class Operation:
    """A variation operator as the policy names it in a directive."""

    arity: int
    describe: str
    apply: Operator
    rate: float
    """Base share of the policy's choices."""


OPERATIONS: dict[str, Operation] = {
    "crossover": Operation(2, "graft a subtree of the second parent into the first", crossover, 0.35),
    "subtree": Operation(1, "replace a random subtree with a new random one", subtree_mutation, 0.15),
    "semantic": Operation(1, "add a small multiple of a new random tree to the parent", semantic_mutation, 0.25),
    "point": Operation(1, "swap one function or terminal for another of the same arity", point_mutation, 0.05),
    "constant": Operation(1, "move the constants by small Gaussian steps", constant_mutation, 0.15),
    "hoist": Operation(1, "replace the tree by one of its subtrees (shrinks it)", hoist, 0.05),
}
NEW = "new"
"""The operation that ignores the parents and draws a ramped half-and-half tree."""


def vary(operation: str, rng: random.Random, grammar: Grammar, parents: list[Tree],
         weights: dict[str, float]) -> Child:
    """Apply ``operation`` until the child is within the bloat limits and differs from every parent."""
    if operation == NEW or not parents:
        return ramped(rng, grammar, weights)
    for _ in range(ATTEMPTS):
        child = OPERATIONS[operation].apply(rng, grammar, parents, weights)
        tree = trees.fold(child.tree)
        if within_limits(tree) and tree not in parents:
            return Child(tree, child.detail)
    smallest = min((p for p in trees.paths(parents[0]) if p), key=lambda p: trees.size(trees.at(parents[0], p)),
                   default=())
    return Child(trees.at(parents[0], smallest), "hoist of the smallest subtree (no child within the limits)")


def perturb(rng: random.Random, grammar: Grammar, tree: Tree, weights: dict[str, float]) -> Child:
    """Prompt perturbation's counterpart: a deeper new subtree grafted in (kept within the limits)."""
    for _ in range(ATTEMPTS):
        child = subtree_mutation(rng, grammar, [tree], weights, max_depth=4)
        folded = trees.fold(child.tree)
        if within_limits(folded):
            return Child(folded, child.detail)
    return Child(tree, "perturbation found no child within the limits")
