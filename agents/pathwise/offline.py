"""The offline policy (no LLM): genetic programming over expression trees of the heuristic's inputs.

It plays every PathWise role through the same interface as the model-driven roles:

* policy: for each action, an operator (base rates, favoured or damped by the policy critic's advice)
  and its parents by tournament selection with lexicographic parsimony (the lower gap wins, the smaller
  tree breaks ties), among the scored nodes in scope whose tree is known;
* world model: applies the directive's operator to the parents' trees (``gp.variation``) under bloat
  limits and writes the child as a heuristic (``gp.grammars``); a perturbed rollout grafts in a deeper
  new subtree. EoH's directives map to GP operators (e1: a new tree, e2: crossover, m1: subtree
  mutation, m2: constant mutation) and the seed directive draws a ramped half-and-half tree;
* policy critic: which operators' rollouts beat their parents, which did not, which parents failed;
* world-model critic: the primitives that set the best rollout apart from the worst.

Reports name it "offline policy: genetic programming over expression trees".
"""

from __future__ import annotations

import random

from agents.pathwise.baselines import OPERATORS as EOH_OPERATORS
from agents.pathwise.context import SEED_DIRECTIVE
from agents.pathwise.gp import advice as advising
from agents.pathwise.gp import tree as trees
from agents.pathwise.gp.problems import grammar_for
from agents.pathwise.gp import variation
from agents.pathwise.gp.variation import NEW, OPERATIONS
from agents.pathwise.prompts import Action, Candidate
from benchmarks.ahd.problem import Problem
from memory.entailment.graph import HeuristicNode

NAME = "offline policy: genetic programming over expression trees"
TOURNAMENT = 3
NEW_DIRECTIVE = f"{NEW}: draw a new ramped half-and-half tree"
KNOWN_DIRECTIVES = {SEED_DIRECTIVE: NEW, EOH_OPERATORS["e1"][1]: NEW, EOH_OPERATORS["e2"][1]: "crossover",
                    EOH_OPERATORS["m1"][1]: "subtree", EOH_OPERATORS["m2"][1]: "constant"}
"""The seed prompt's and EoH's directives, as GP operators."""


def directive(operation: str) -> str:
    """The directive naming ``operation``: ``crossover: graft a subtree ...``."""
    return NEW_DIRECTIVE if operation == NEW else f"{operation}: {OPERATIONS[operation].describe}"


def operation_of(text: str, parents: int) -> str:
    """The operator a directive asks for; the seed prompt's, EoH's and other directives map to GP operators."""
    head = text.split(":", 1)[0].strip()
    if head in OPERATIONS or head == NEW:
        return head
    if text in KNOWN_DIRECTIVES or parents == 0:
        return KNOWN_DIRECTIVES.get(text, NEW)
    return "crossover" if parents > 1 else "subtree"


class OfflineRoles:
    """The four PathWise roles as a GP search; see the module docstring."""

    name = NAME

    def __init__(self) -> None:
        self._scores: dict[str, float | None] = {}

    def propose(self, problem: Problem, nodes: list[HeuristicNode], n_actions: int, advice: str,
                seed: int = 0) -> list[Action]:
        grammar = grammar_for(problem.name)
        self._scores = {n.id: n.score for n in nodes}
        said = advising.read_policy_advice(advice)
        pool = [(n, t) for n in nodes if n.score is not None and (t := grammar.tree_of(n.code)) is not None]
        pool = [entry for entry in pool if entry[0].id not in said.avoid_parents] or pool
        rng = random.Random(seed)
        if not pool:
            return [Action([n.id for n in nodes[:1]], NEW_DIRECTIVE) for _ in range(n_actions)]
        names = list(OPERATIONS)
        weights = [OPERATIONS[name].rate * said.operator_weight(name) for name in names]
        actions = []
        for _ in range(n_actions):
            operation = rng.choices(names, weights)[0]
            parents = _tournaments(rng, pool, OPERATIONS[operation].arity)
            actions.append(Action([p.id for p in parents], directive(operation)))
        return actions

    def rollout(self, problem: Problem, parents: list[HeuristicNode], directive: str, advice: str,
                perturb: bool, seed: int) -> Candidate | None:
        grammar = grammar_for(problem.name)
        known = [t for p in parents if (t := grammar.tree_of(p.code)) is not None]
        rng, weights = random.Random(seed), advising.primitive_weights(advice)
        child = variation.vary(operation_of(directive, len(known)), rng, grammar, known, weights)
        tree, detail = child.tree, child.detail
        if perturb:
            extra = variation.perturb(rng, grammar, tree, weights)
            tree, detail = extra.tree, f"{detail}; perturbation: {extra.detail}"
        return Candidate(grammar.render(tree), f"{detail} -> {trees.text(tree)}")

    def policy_advice(self, problem: Problem, outcomes: list[tuple[Action, float | None]]) -> str:
        improved, flat, failed = [], [], []
        for action, mean in outcomes:
            operation = operation_of(action.directive, len(action.parents))
            known = [s for p in action.parents if (s := self._scores.get(p)) is not None]
            if mean is None:
                failed += action.parents
            elif mean < min(known, default=float("inf")) - 1e-9:
                improved.append(operation)
            else:
                flat.append(operation)
        return advising.policy_advice(improved, flat, failed)

    def world_model_advice(self, problem: Problem, best: tuple[str, str], worst: tuple[str, str]) -> str:
        grammar = grammar_for(problem.name)
        best_tree, worst_tree = grammar.tree_of(best[0]), grammar.tree_of(worst[0])
        if best_tree is None or worst_tree is None:
            return ""
        return advising.world_model_advice(trees.primitives(best_tree), trees.primitives(worst_tree))


def _tournaments(rng: random.Random, pool: list[tuple[HeuristicNode, trees.Tree]], count: int) -> list[HeuristicNode]:
    """``count`` distinct winners (while the pool lasts) of tournaments of :data:`TOURNAMENT` entrants."""
    chosen: list[HeuristicNode] = []
    for _ in range(count):
        left = [entry for entry in pool if all(entry[0].id != c.id for c in chosen)] or pool
        entrants = rng.sample(left, min(TOURNAMENT, len(left)))
        chosen.append(min(entrants, key=lambda e: (round(e[0].fitness, 9), trees.size(e[1])))[0])
    return chosen
