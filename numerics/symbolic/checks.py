"""Run the SIGS checks: exact recovery of the closed-form cases, best approximation otherwise."""

from __future__ import annotations

import time
from typing import Callable

from numerics.symbolic.cases import CLOSED_FORM, MAX_TERMS, NO_CLOSED_FORM, matches
from numerics.symbolic.solve import solve_pde


CASES = {**CLOSED_FORM, **{name: (spec, None) for name, spec in NO_CLOSED_FORM.items()}}
"""Every case by name: its spec and its expected closed form (None when it has none)."""


def case_names(names: list[str] | None = None) -> list[str]:
    """The cases to check, in order: those of ``names``, or all of them."""
    return [name for name in CASES if not names or name in names]


def check_case(name: str) -> dict:
    """One case's row: the solution, its residual, whether sympy proved it and whether it matches the truth."""
    spec, expected = CASES[name]
    start = time.perf_counter()
    solution = solve_pde(spec, max_terms=MAX_TERMS.get(name, 2))
    return {"case": name, "solution": "; ".join(f"{k} = {v}" for k, v in solution.expressions.items()),
            "exact": solution.exact, "residual": solution.residual,
            "recovered": bool(expected and (solution.exact or solution.residual < 1e-8)
                              and matches(solution.expressions, expected)) if expected else None,
            "seconds": round(time.perf_counter() - start, 2)}


def summarise(rows: list[dict]) -> dict:
    """How many closed-form cases were recovered, and the residuals of the cases without one."""
    closed = [r for r in rows if r["recovered"] is not None]
    return {"closed_form_cases": len(closed), "recovered": sum(bool(r["recovered"]) for r in closed),
            "no_closed_form_residuals": {r["case"]: r["residual"] for r in rows if r["recovered"] is None}}


def run_checks(names: list[str] | None = None, on_row: Callable[[dict], None] | None = None) -> tuple[dict, list[dict]]:
    """One row per case (see :func:`check_case`), in order, and their summary."""
    rows = []
    for name in case_names(names):
        rows.append(check_case(name))
        if on_row:
            on_row(rows[-1])
    return summarise(rows), rows
