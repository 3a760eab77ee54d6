"""What a tree may read for each AHD problem, and how a tree becomes a heuristic with the problem's signature.

A :class:`Grammar` names the terminals (the heuristic's inputs and features derived from them) and the
lines that compute them; :meth:`Grammar.render` writes a standalone heuristic that computes only the
terminals its tree reads, evaluates the tree over all bins, nodes or items at once, and turns the scores
into the problem's return value. The tree's s-expression is kept in the docstring (``Tree: ...``), so a
heuristic's tree can be read back from its code. Each classic baseline has its tree (best fit is
``(neg g)``), so the search can derive from the graph's seeds.

Bin packing follows the GP hyper-heuristic setting of Burke, Hyde and Kendall (PPSN 2006): the item size,
a bin's remaining capacity and what is derived from them (here normalised by the bin capacity, so one
tree reads the same at capacity 100 and 500). TSP construction reads distances and simple neighbourhood
statistics of each candidate node.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from agents.pathwise.gp import tree as trees
from agents.pathwise.gp.tree import Tree
from benchmarks.ahd.problem import Problem

TREE_LINE = re.compile(r"^\s*Tree: (.+)$", re.MULTILINE)


@dataclass(frozen=True)
class Definition:
    """A local variable of the heuristic: ``name = expression`` (a terminal or a value terminals share)."""

    name: str
    expression: str
    meaning: str
    needs: tuple[str, ...] = ()
    """Earlier definitions the expression uses."""
    vector: bool = True
    """One value per bin, node or item (False: one value for the call)."""


@dataclass(frozen=True)
class Grammar:
    """The terminal set of one problem and the template its heuristics are written in."""

    problem: Problem
    purpose: str
    terminals: tuple[Definition, ...]
    result: str
    """The return statement's expression, with ``score`` the tree's value."""
    scalar_result: str = ""
    """The return expression when the tree reads no vector terminal (default: ``result``)."""
    shared: tuple[Definition, ...] = ()
    guard: tuple[str, ...] = ()
    """Lines run before any definition (an early return)."""
    seeds: dict[str, Tree] = field(default_factory=dict)
    """The tree of each classic baseline, by baseline name."""

    @property
    def names(self) -> list[str]:
        return [t.name for t in self.terminals]

    def render(self, tree: Tree) -> str:
        """The heuristic computing ``tree``, as a standalone module."""
        used = trees.terminals(tree)
        vector = any(t.vector for t in self.terminals if t.name in used)
        result = self.result if vector or not self.scalar_result else self.scalar_result
        helper = f"{trees.PDIV}\n\n" if "div" in trees.primitives(tree) else ""
        body = [*self.guard, *self._definitions(used), f"score = {trees.numpy_expression(tree)}",
                f"return {result}"]
        doc = f'    """{self.purpose}\n\n    Tree: {trees.text(tree)}\n    """\n'
        return (f"import numpy as np\n\n\n{helper}{self.problem.signature}:\n{doc}"
                + "".join(f"    {line}\n" for line in body))

    def _definitions(self, used: set[str]) -> list[str]:
        everything = [*self.shared, *self.terminals]
        needed = set(used)
        for definition in reversed(everything):  # a definition needs only earlier ones
            if definition.name in needed:
                needed.update(definition.needs)
        return [f"{d.name} = {d.expression}  # {d.meaning}" for d in everything if d.name in needed]

    def tree_of(self, code: str) -> Tree | None:
        """The tree a heuristic's code computes: its ``Tree:`` line, or a classic baseline's tree; else None."""
        for name, baseline in self.problem.baselines.items():
            if code == baseline and name in self.seeds:
                return self.seeds[name]
        match = TREE_LINE.search(code)
        if match is None:
            return None
        try:
            tree = trees.parse(match.group(1))
        except ValueError:
            return None
        return tree if trees.terminals(tree) <= set(self.names) else None

    def vector_terminals(self) -> list[str]:
        return [t.name for t in self.terminals if t.vector]
