"""solve_pde: grammar → structure search → constant refinement → symbolic verification."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import sympy as sp

from numerics.symbolic.grammar import generate_blocks
from numerics.symbolic.refine import parametrise, refine, row_expressions, snap, verify
from numerics.symbolic.residual import Problem, is_linear
from numerics.symbolic.search import Fitter, beam_search
from numerics.symbolic.spec import PDESpec, parse_spec


@dataclass
class Solution:
    """The best closed form found, its residual RMS and whether sympy proved it exact."""

    expressions: dict[str, sp.Expr]
    residual: float
    exact: bool
    structure_residual: float
    history: list[dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {"solution": {k: str(v) for k, v in self.expressions.items()}, "residual": self.residual,
                "exact": self.exact, "structure_residual": self.structure_residual}


def solve_pde(spec: PDESpec | dict[str, Any], *, max_terms: int = 2, beam: int = 3, depth: int = 2,
              candidates: int = 3, seed: int = 0) -> Solution:
    """Search structures over the grammar's blocks (``ansatz``: a sum of at most ``max_terms`` blocks per
    unknown), refine the best ``candidates`` and return the one with the smallest residual."""
    spec = parse_spec(spec) if isinstance(spec, dict) else spec
    problem = Problem(spec, seed=seed)
    blocks = generate_blocks(spec.variables, depth=depth)
    pool = [(name, block) for name in spec.unknowns for block in blocks]
    linear = is_linear(spec)
    ranked = beam_search(Fitter(problem, pool, linear), pool, max_terms=max_terms, beam=beam)
    best: Solution | None = None
    history = []
    for candidate in ranked[:candidates]:
        template = parametrise(candidate, spec.unknowns)
        values = refine(spec, template, seed=seed + 1)
        solution = _finish(spec, template.solution, values, candidate.residual)
        history.append({"structure": [f"{n}: {b}" for n, b in candidate.terms], "structure_residual": candidate.residual,
                        "residual": solution.residual, "exact": solution.exact})
        if best is None or (solution.exact, -solution.residual) > (best.exact, -best.residual):
            best = solution
        if solution.exact:
            break
    assert best is not None, "the search produced no candidate"
    best.history = history
    return best


def _finish(spec: PDESpec, template: dict[str, sp.Expr], values: dict, structure_residual: float) -> Solution:
    snapped = {name: sp.simplify(expr.xreplace(snap(values))) for name, expr in template.items()}
    if residual_rms(spec, snapped, points=64) < 1e-9 and verify(spec, snapped):
        return Solution(snapped, 0.0, True, structure_residual)
    numeric = {name: expr.xreplace({k: sp.Float(v) for k, v in values.items()}) for name, expr in template.items()}
    return Solution(numeric, residual_rms(spec, numeric), False, structure_residual)


def residual_rms(spec: PDESpec, solution: dict[str, sp.Expr], points: int = 400, seed: int = 7) -> float:
    """RMS of every row on fresh points (each row's mean square averaged)."""
    squares = []
    point_sets = [spec.interior_points(points, seed)] * len(spec.equations)
    point_sets += [spec.face_points(c, points, seed + 1 + i) for i, c in enumerate(spec.conditions)]
    for row, p in zip(row_expressions(spec, solution), point_sets):
        values = sp.lambdify(spec.variables, row, "numpy")(*(p[str(v)] for v in spec.variables))
        squares.append(float(np.mean(np.broadcast_to(np.asarray(values, dtype=float), (points,)) ** 2)))
    return float(np.sqrt(np.mean(squares)))
