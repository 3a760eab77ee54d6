"""A depth-limited grammar of building blocks over the independent variables, with free constants.

    Block -> Atom | Atom(v1) * Atom(v2)           (depth 2: products across variables)
    Atom  -> sin(k v) | cos(k v) | exp(k v) | v | v**2 | 1
           | sin(k1 v1 + k2 v2) | cos(k1 v1 + k2 v2) | tanh(k1 v1 + k2 v2)   (travelling forms)

Each free constant ``k`` is a sympy symbol with a grid of starting values; the search fixes them
on the grid and the refinement stage frees them again.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import sympy as sp

FREQUENCIES = (1.0, 2.0, 3.0)
RATES = (-2.0, -1.0, -0.5, 0.5, 1.0)
SPEEDS = (-2.0, -1.0, -0.5, 0.5, 1.0, 2.0)


@dataclass(frozen=True)
class Block:
    """A building block: an expression in the variables and constants, and the constants' start values."""

    expr: sp.Expr
    constants: tuple[tuple[sp.Symbol, float], ...] = ()

    def instantiate(self) -> sp.Expr:
        return self.expr.subs(dict(self.constants))

    def __str__(self) -> str:
        return str(self.instantiate())


class _Names:
    def __init__(self) -> None:
        self.count = itertools.count()

    def __call__(self) -> sp.Symbol:
        return sp.Symbol(f"k{next(self.count)}", real=True)


def atoms(variable: sp.Symbol, names: _Names, role: str = "space") -> list[Block]:
    """Single-variable atoms; ``role`` 'time' favours decays, 'space' favours oscillations."""
    blocks = [Block(variable), Block(variable**2)]
    for value in FREQUENCIES:
        k = names()
        blocks += [Block(sp.sin(k * variable), ((k, value),)), Block(sp.cos(k * variable), ((k, value),))]
    for value in RATES if role == "time" else ():
        k = names()
        blocks.append(Block(sp.exp(k * variable), ((k, value),)))
    return blocks


def travelling(space: sp.Symbol, time: sp.Symbol, names: _Names) -> list[Block]:
    """Waves in ``space - c time``: sin, cos and tanh of k1 x + k2 t."""
    blocks = []
    for frequency, speed in itertools.product(FREQUENCIES, SPEEDS):
        for head in (sp.sin, sp.cos, sp.tanh):
            k1, k2 = names(), names()
            blocks.append(Block(head(k1 * space + k2 * time), ((k1, frequency), (k2, -frequency * speed))))
    return blocks


def generate_blocks(variables: list[sp.Symbol], depth: int = 2, time_name: str = "t") -> list[Block]:
    """Every block up to ``depth`` (1: atoms only; 2: also products of atoms of different variables)."""
    names = _Names()
    per_variable = {v: atoms(v, names, "time" if str(v) == time_name else "space") for v in variables}
    blocks = [Block(sp.Integer(1))] + [b for v in variables for b in per_variable[v]]
    if depth >= 2 and len(variables) >= 2:
        for first, second in itertools.combinations(variables, 2):
            for a, b in itertools.product(per_variable[first], per_variable[second]):
                blocks.append(Block(a.expr * b.expr, a.constants + b.constants))
        space = [v for v in variables if str(v) != time_name]
        time = [v for v in variables if str(v) == time_name]
        if space and time:
            blocks += travelling(space[0], time[0], names)
    return blocks
