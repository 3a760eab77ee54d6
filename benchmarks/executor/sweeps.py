"""Numerics sweeps whose points are independent, as executor jobs (``agent bench sigs --executor``).

numerics/ imports none of our packages, so the fan-out lives here: each point is a job whose function calls
the numerics function for that point on whichever node runs it; the driver puts the rows back in order and
summarises them as the sequential check does.
"""

from __future__ import annotations

from typing import Callable

from benchmarks.executor.base import Executor, Job, Place, run_all


def sigs_case(place: Place, name: str) -> dict:
    """One SIGS case solved and checked on ``place`` (pure computation: no sandbox needed)."""
    from numerics.symbolic.checks import check_case

    return check_case(name)


def sigs_checks(executor: Executor, names: list[str] | None = None,
                on_row: Callable[[dict], None] | None = None) -> tuple[dict, list[dict]]:
    """The SIGS checks of ``names`` (all when None), one job per case: ``(summary, rows)`` as
    ``numerics.symbolic.checks.run_checks`` gives them; ``on_row`` in the driver as each case finishes.
    Here the cases run one after another, as before; on a cluster, as many at once as it has room for."""
    from numerics.symbolic.checks import case_names, summarise

    jobs = [Job(f"sigs {name}", sigs_case, (name,)) for name in case_names(names)]
    rows = run_all(executor, jobs, width=1 if executor.name == "local" else len(jobs),
                   on_result=(lambda done, index, row: on_row(row)) if on_row else None)
    return summarise(rows), rows
