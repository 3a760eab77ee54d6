"""The offline policy (no LLM): mutation of parameters and expressions inside the seed heuristics.

It plays the policy (pick the best-scoring parents with a random directive kind) and the world model
(rewrite the parent's code: scale a numeric constant, swap an arithmetic operator, or raise a
variable to a power). It has no critics. Reports name it "offline policy: parameter/expression mutation".
"""

from __future__ import annotations

import ast
import random

from agents.pathwise.prompts import Action, Candidate
from benchmarks.ahd.problem import Problem
from memory.entailment.graph import HeuristicNode

NAME = "offline policy: parameter/expression mutation"
SCALES = (0.5, 0.8, 1.25, 2.0, -1.0)
SWAPS = {ast.Add: ast.Sub, ast.Sub: ast.Add, ast.Mult: ast.Div, ast.Div: ast.Mult}


class _Mutator(ast.NodeTransformer):
    """Applies one mutation to the ``target``-th mutable site of the function body."""

    def __init__(self, target: int, rng: random.Random):
        self.target, self.rng, self.seen, self.done = target, rng, 0, ""

    def _hit(self) -> bool:
        self.seen += 1
        return self.seen - 1 == self.target

    def visit_Constant(self, node: ast.Constant) -> ast.AST:
        if isinstance(node.value, (int, float)) and not isinstance(node.value, bool) and self._hit():
            scale = self.rng.choice(SCALES)
            new = node.value * scale if node.value else scale * 0.1
            self.done = f"scaled constant {node.value!r} to {new!r}"
            return ast.copy_location(ast.Constant(new), node)
        return node

    def visit_BinOp(self, node: ast.BinOp) -> ast.AST:
        self.generic_visit(node)
        if type(node.op) in SWAPS and self._hit():
            self.done = f"swapped {type(node.op).__name__} for {SWAPS[type(node.op)].__name__}"
            node.op = SWAPS[type(node.op)]()
        return node

    def visit_Name(self, node: ast.Name) -> ast.AST:
        if isinstance(node.ctx, ast.Load) and node.id not in ("np", "numpy", "math", "int", "float", "len") \
                and self._hit():
            power = self.rng.choice((0.5, 2.0))
            self.done = f"raised {node.id} to the power {power}"
            return ast.copy_location(ast.BinOp(ast.Name(node.id, ast.Load()), ast.Pow(), ast.Constant(power)), node)
        return node


def count_sites(tree: ast.AST) -> int:
    counter = _Mutator(-1, random.Random(0))
    counter.visit(tree)
    return counter.seen


def mutate(code: str, function_name: str, rng: random.Random) -> tuple[str, str]:
    """One random mutation inside ``function_name``: (new code, what was changed)."""
    tree = ast.parse(code)
    function = next(n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == function_name)
    body = ast.Module(body=[s for s in function.body if not _is_docstring(s)], type_ignores=[])
    sites = count_sites(body)
    if sites == 0:
        return code, "nothing to mutate"
    mutator = _Mutator(rng.randrange(sites), rng)
    mutator.visit(body)
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n", mutator.done


def _is_docstring(statement: ast.stmt) -> bool:
    return isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant) \
        and isinstance(statement.value.value, str)


class OfflineRoles:
    """Policy and world model without a model; critics are absent (their advice is empty)."""

    name = NAME

    def propose(self, problem: Problem, nodes: list[HeuristicNode], n_actions: int, advice: str) -> list[Action]:
        ranked = sorted((n for n in nodes if n.score is not None), key=lambda n: n.fitness) or nodes
        return [Action([ranked[i % len(ranked)].id], "mutate a parameter or an expression")
                for i in range(n_actions)]

    def rollout(self, problem: Problem, parents: list[HeuristicNode], directive: str, advice: str,
                perturb: bool, seed: int) -> Candidate | None:
        rng = random.Random(seed)
        code, change = mutate(parents[0].code, problem.function_name, rng)
        if perturb:
            code, second = mutate(code, problem.function_name, rng)
            change = f"{change}; {second}"
        return Candidate(code, f"{parents[0].description} ({change})")

    def policy_advice(self, problem: Problem, outcomes: list) -> str:
        return ""

    def world_model_advice(self, problem: Problem, best: tuple[str, str], worst: tuple[str, str]) -> str:
        return ""
