"""Stage 2: free every constant of the chosen structure and minimise the residual by gradient descent
through ``sympy.lambdify(..., "torch")``; then snap constants to simple numbers and verify symbolically."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Sequence

import numpy as np
import sympy as sp
import torch

from numerics.symbolic.search import Candidate
from numerics.symbolic.spec import PDESpec


@dataclass
class Parametrised:
    """A solution template and the start values of its constants."""

    solution: dict[str, sp.Expr]
    start: dict[sp.Symbol, float]


def parametrise(candidate: Candidate, unknowns: Sequence[str]) -> Parametrised:
    solution = {name: sp.Integer(0) for name in unknowns}
    start: dict[sp.Symbol, float] = {}
    for index, ((name, block), value) in enumerate(zip(candidate.terms, candidate.coefficients)):
        a = sp.Symbol(f"a{index}", real=True)
        renamed = {k: sp.Symbol(f"{k}_{index}", real=True) for k, _ in block.constants}
        solution[name] += a * block.expr.xreplace(renamed)
        start[a] = float(value)
        start.update({renamed[k]: float(v) for k, v in block.constants})
    return Parametrised(solution, start)


def row_expressions(spec: PDESpec, solution: dict[str, sp.Expr]) -> list[sp.Expr]:
    """Each equation, then each condition's ``expr - value`` on its face, with the solution substituted."""
    rows = [spec.substitute(eq, solution) for eq in spec.equations]
    for c in spec.conditions:
        expr = spec.substitute(c.expr, solution) - spec.parse(c.value)
        rows.append(expr.subs(sp.Symbol(c.variable, real=True), c.face))
    return rows


def refine(spec: PDESpec, template: Parametrised, *, steps: int = 200, points: int = 256,
           seed: int = 1) -> dict[sp.Symbol, float]:
    """L-BFGS on the mean squared residual over fresh collocation and face points (float64)."""
    symbols = list(template.start)
    rows = row_expressions(spec, template.solution)
    variables = spec.variables
    functions = [sp.lambdify([*variables, *symbols], row, "torch") for row in rows]
    point_sets = [spec.interior_points(points, seed)] * len(spec.equations)
    point_sets += [spec.face_points(c, points // 2, seed + 1 + i) for i, c in enumerate(spec.conditions)]
    coordinates = [[torch.tensor(p[str(v)], dtype=torch.float64) for v in variables] for p in point_sets]
    params = torch.tensor([template.start[s] for s in symbols], dtype=torch.float64, requires_grad=True)
    optimiser = torch.optim.LBFGS([params], lr=1.0, max_iter=steps, tolerance_grad=1e-14, tolerance_change=1e-16,
                                  line_search_fn="strong_wolfe")

    def loss_fn() -> torch.Tensor:
        optimiser.zero_grad()
        total = sum(torch.mean(torch.as_tensor(f(*xs, *params), dtype=torch.float64) ** 2)
                    for f, xs in zip(functions, coordinates))
        total.backward()
        return total

    optimiser.step(loss_fn)
    values = params.detach().numpy()
    if not np.all(np.isfinite(values)):
        return dict(template.start)
    return dict(zip(symbols, values.tolist()))


def snap(values: dict[sp.Symbol, float], tolerance: float = 1e-6, max_denominator: int = 64) -> dict[sp.Symbol, sp.Expr]:
    """Each constant as 0, a small-denominator rational, or such a multiple of pi when within ``tolerance``;
    otherwise it stays a float."""
    snapped: dict[sp.Symbol, sp.Expr] = {}
    for symbol, value in values.items():
        snapped[symbol] = _simple_number(value, tolerance, max_denominator)
    return snapped


def _simple_number(value: float, tolerance: float, max_denominator: int) -> sp.Expr:
    if abs(value) < tolerance:
        return sp.Integer(0)
    for unit in (sp.Integer(1), sp.pi):
        ratio = Fraction(value / float(unit)).limit_denominator(max_denominator)
        if abs(float(ratio) * float(unit) - value) <= tolerance * max(1.0, abs(value)):
            return sp.Rational(ratio.numerator, ratio.denominator) * unit
    return sp.Float(value)


def verify(spec: PDESpec, solution: dict[str, sp.Expr]) -> bool:
    """True when sympy simplifies every equation and condition residual to zero."""
    if any(isinstance(atom, sp.Float) for expr in solution.values() for atom in expr.atoms(sp.Number)):
        return False
    return all(sp.simplify(sp.expand_trig(row)) == 0 or sp.simplify(row.rewrite(sp.exp)) == 0
               for row in row_expressions(spec, solution))
