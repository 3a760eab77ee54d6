"""Run the SIGS checks: exact recovery of the closed-form cases, best approximation otherwise."""

from __future__ import annotations

import time
from typing import Callable

from numerics.symbolic.cases import CLOSED_FORM, MAX_TERMS, NO_CLOSED_FORM, matches
from numerics.symbolic.solve import solve_pde


def run_checks(names: list[str] | None = None, on_row: Callable[[dict], None] | None = None) -> tuple[dict, list[dict]]:
    """One row per case: the solution, its residual, whether sympy proved it and whether it matches the truth."""
    rows = []
    cases = {**{k: v for k, v in CLOSED_FORM.items()}, **{k: (v, None) for k, v in NO_CLOSED_FORM.items()}}
    for name, (spec, expected) in cases.items():
        if names and name not in names:
            continue
        start = time.perf_counter()
        solution = solve_pde(spec, max_terms=MAX_TERMS.get(name, 2))
        row = {"case": name, "solution": "; ".join(f"{k} = {v}" for k, v in solution.expressions.items()),
               "exact": solution.exact, "residual": solution.residual,
               "recovered": bool(expected and (solution.exact or solution.residual < 1e-8)
                                 and matches(solution.expressions, expected)) if expected else None,
               "seconds": round(time.perf_counter() - start, 2)}
        rows.append(row)
        if on_row:
            on_row(row)
    closed = [r for r in rows if r["recovered"] is not None]
    summary = {"closed_form_cases": len(closed), "recovered": sum(bool(r["recovered"]) for r in closed),
               "no_closed_form_residuals": {r["case"]: r["residual"] for r in rows if r["recovered"] is None}}
    return summary, rows
