"""Numeric residuals through jets: each row is a function of the unknowns' derivatives, lambdified once.

A row (an equation, or a condition's ``expr - value``) becomes F(variables, u, u_x, u_xx, ...).
A block's jet (its value and needed derivatives at the row's points) is computed once, so the
residual of any linear combination of blocks costs only array arithmetic.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

import numpy as np
import sympy as sp

from numerics.symbolic.spec import PDESpec

JetKey = tuple[str, tuple[str, ...]]  # (unknown, derivative variables)


@dataclass
class Row:
    function: object               # lambdified F(*variables, *jet symbols)
    keys: tuple[JetKey, ...]
    points: int                    # index into Problem.point_sets


def _jet_symbol(key: JetKey) -> sp.Symbol:
    name, variables = key
    return sp.Symbol("__".join([name, *variables]) if variables else name)


def _to_jet(expr: sp.Expr, spec: PDESpec) -> tuple[sp.Expr, tuple[JetKey, ...]]:
    functions = spec.functions()
    names = {f: name for name, f in functions.items()}
    replacements, keys = {}, []
    for derivative in sorted(expr.atoms(sp.Derivative), key=str):
        key = (names[derivative.expr], tuple(str(v) for v, count in derivative.variable_count for _ in range(count)))
        replacements[derivative] = _jet_symbol(key)
        keys.append(key)
    expr = expr.xreplace(replacements)
    for function, name in names.items():
        if expr.has(function):
            keys.append((name, ()))
            expr = expr.xreplace({function: _jet_symbol((name, ()))})
    return expr, tuple(dict.fromkeys(keys))


class Problem:
    """A spec with sampled points and its rows compiled to jet functions."""

    def __init__(self, spec: PDESpec, interior: int = 200, face: int = 60, seed: int = 0):
        self.spec = spec
        self.variables = spec.variables
        self.point_sets = [spec.interior_points(interior, seed)]
        self.point_sets += [spec.face_points(c, face, seed + 1 + i) for i, c in enumerate(spec.conditions)]
        self.rows = [self._row(spec.parse(eq), 0) for eq in spec.equations]
        self.rows += [self._row(spec.parse(c.expr) - spec.parse(c.value), 1 + i) for i, c in enumerate(spec.conditions)]

    def _row(self, expr: sp.Expr, points: int) -> Row:
        jet_expr, keys = _to_jet(expr, self.spec)
        function = sp.lambdify([*self.variables, *(_jet_symbol(k) for k in keys)], jet_expr, "numpy")
        return Row(function, keys, points)

    def _coordinates(self, points: int) -> list[np.ndarray]:
        return [self.point_sets[points][str(v)] for v in self.variables]

    @lru_cache(maxsize=None)
    def block_jet(self, expr: sp.Expr, points: int, derivative: tuple[str, ...]) -> np.ndarray:
        """Values of d^derivative expr at one point set."""
        target = sp.diff(expr, *[sp.Symbol(v, real=True) for v in derivative]) if derivative else expr
        values = sp.lambdify(self.variables, target, "numpy")(*self._coordinates(points))
        count = len(self._coordinates(points)[0])
        return np.broadcast_to(np.asarray(values, dtype=float), (count,)).copy()

    def residual(self, terms: Sequence[tuple[str, sp.Expr]], coefficients: Sequence[float]) -> np.ndarray:
        """All rows for u_name = sum(coefficient * expr), each row block scaled by 1/sqrt(its size)."""
        parts = []
        for row in self.rows:
            count = len(self._coordinates(row.points)[0])
            jets = []
            for name, variables in row.keys:
                value = np.zeros(count)
                for (term_name, expr), coefficient in zip(terms, coefficients):
                    if term_name == name:
                        value = value + coefficient * self.block_jet(expr, row.points, variables)
                jets.append(value)
            out = row.function(*self._coordinates(row.points), *jets)
            parts.append(np.broadcast_to(np.asarray(out, dtype=float), (count,)) / np.sqrt(count))
        return np.concatenate(parts)

    def rms(self, vector: np.ndarray) -> float:
        return float(np.sqrt(np.sum(vector**2) / len(self.rows)))


def is_linear(spec: PDESpec) -> bool:
    """True when every equation is affine in the unknowns and their derivatives."""
    for equation in spec.equations:
        jet_expr, keys = _to_jet(spec.parse(equation), spec)
        symbols = [_jet_symbol(k) for k in keys]
        if symbols and not all(sp.diff(jet_expr, a, b) == 0 for a in symbols for b in symbols):
            return False
    return True
