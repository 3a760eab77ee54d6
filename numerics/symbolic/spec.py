"""A PDE problem: equations, unknowns, a box domain and conditions, parsed from plain strings."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import sympy as sp

from numerics.symbolic.expressions import ExpressionError, check_name, parse_expression, parse_number


@dataclass
class Condition:
    """``expr`` (e.g. ``u`` or ``diff(u, t)``) equals ``value`` on the face ``variable = at``."""

    variable: str
    at: float | str
    expr: str
    value: str = "0"

    @property
    def face(self) -> sp.Expr:
        """The face coordinate, exact (``pi`` stays pi)."""
        return parse_number(self.at)


@dataclass
class PDESpec:
    """Equations (each ``= 0``) in unknown functions of the domain's variables."""

    equations: list[str]
    domain: dict[str, tuple[float, float]]
    conditions: list[Condition] = field(default_factory=list)
    unknowns: list[str] = field(default_factory=lambda: ["u"])

    @property
    def variables(self) -> list[sp.Symbol]:
        return [sp.Symbol(name, real=True) for name in self.domain]

    def functions(self) -> dict[str, Any]:
        return {name: sp.Function(name)(*self.variables) for name in self.unknowns}

    def parse(self, text: str) -> sp.Expr:
        """Parse an expression in the variables and unknown functions (``diff``, ``sin``, ``pi`` ... allowed);
        the text is never evaluated as Python (see numerics.symbolic.expressions)."""
        names = {str(v): v for v in self.variables} | self.functions()
        return parse_expression(text, names)

    def substitute(self, text_or_expr: str | sp.Expr, solution: dict[str, sp.Expr]) -> sp.Expr:
        """Replace each unknown by its closed form and evaluate the derivatives."""
        expr = self.parse(text_or_expr) if isinstance(text_or_expr, str) else text_or_expr
        functions = self.functions()
        return expr.subs({functions[name]: solution[name] for name in self.unknowns}).doit()

    def interior_points(self, count: int, seed: int = 0) -> dict[str, np.ndarray]:
        rng = np.random.default_rng(seed)
        return {name: rng.uniform(low, high, count) for name, (low, high) in self.domain.items()}

    def face_points(self, condition: Condition, count: int, seed: int = 0) -> dict[str, np.ndarray]:
        points = self.interior_points(count, seed)
        points[condition.variable] = np.full(count, float(condition.face), dtype=float)
        return points


def parse_spec(data: dict[str, Any]) -> PDESpec:
    """Build a spec from JSON-like data: equations, domain, conditions, unknowns."""
    equations = data["equations"] if "equations" in data else [data["equation"]]
    conditions = [c if isinstance(c, Condition) else Condition(**c) for c in data.get("conditions", [])]
    domain = {check_name(name, "variable"): (float(parse_number(lo)), float(parse_number(hi)))
              for name, (lo, hi) in data["domain"].items()}
    unknowns = [check_name(name, "unknown") for name in data.get("unknowns", ["u"])]
    if set(unknowns) & set(domain):
        raise ExpressionError(f"unknowns {unknowns} and variables {list(domain)} must have different names")
    spec = PDESpec(list(equations), domain, conditions, unknowns)
    for condition in conditions:
        if condition.variable not in domain:
            raise ExpressionError(f"condition on {condition.variable!r}, which is not a domain variable")
        parse_number(condition.at)
    for text in spec.equations + [c.expr for c in conditions] + [c.value for c in conditions]:
        spec.parse(text)
    return spec
