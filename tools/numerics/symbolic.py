"""Tool: find a closed-form solution of a PDE (SIGS-style symbolic search)."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field

from numerics.symbolic.solve import solve_pde
from numerics.symbolic.spec import parse_spec
from tools.base import Tool


class ConditionArgs(BaseModel):
    """``expr`` equals ``value`` on the face ``variable = at``."""

    variable: str
    at: float | str = Field(description="Face coordinate, a number or an expression such as 'pi'.")
    expr: str = Field("u", description="e.g. 'u' or 'diff(u, t)'.")
    value: str = "0"


class AnsatzArgs(BaseModel):
    """How building blocks combine: a sum of at most ``terms`` blocks per unknown, blocks of grammar depth ``depth``."""

    terms: int = Field(2, ge=1, le=4)
    depth: int = Field(2, ge=1, le=2)


class SolvePDEArgs(BaseModel):
    """A PDE (or system) on a box domain with conditions."""

    equation: str | Annotated[list[str], Field(max_length=8)] = Field(description="Expression(s) equal to zero, e.g. 'diff(u,t) - diff(u,x,2)'; "
                                      "numbers, + - * / **, sin cos tan exp log sqrt sinh cosh tanh asin acos atan "
                                      "Abs, pi, E and diff(f, x[, order]).")
    domain: dict[str, tuple[float | str, float | str]] = Field(description="Variable -> [low, high].", max_length=4)
    conditions: list[ConditionArgs] = Field(default_factory=list, max_length=16)
    unknowns: list[str] = Field(default_factory=lambda: ["u"], max_length=4)
    ansatz: AnsatzArgs = Field(default_factory=AnsatzArgs)


def solve_pde_tool(args: SolvePDEArgs) -> dict:
    """Search closed forms over grammar-generated blocks; report the solution, its residual and whether sympy proved it."""
    equations = args.equation if isinstance(args.equation, list) else [args.equation]
    spec = parse_spec({"equations": equations, "domain": args.domain, "unknowns": args.unknowns,
                       "conditions": [c.model_dump() for c in args.conditions]})
    solution = solve_pde(spec, max_terms=args.ansatz.terms, depth=args.ansatz.depth)
    return solution.as_dict()


SOLVE_PDE_TOOL = Tool("solve_pde", solve_pde_tool.__doc__ or "", SolvePDEArgs, solve_pde_tool, group="numerics",
                      capabilities=("compute",))
"""Runs at once: the expressions are parsed against an allow-list, never evaluated (numerics.symbolic.expressions)."""
