"""The kernel benchmark's panel (`agent bench kernels`): the per-task table and the speedup of each solution."""

from __future__ import annotations

from typing import Any

from agents.runtime.run import Run

COLUMNS = ("task", "solution", "status", "correct", "speedup", "runtime_ms", "reference_ms", "roofline_fraction",
           "bottleneck", "reason")


def view(run: Run) -> dict[str, Any]:
    report = run.read_report()
    rows = report.rows if report else []
    if not rows:  # still running: the results so far
        rows = [{"task": e.get("task"), "solution": e.get("solution"), "status": e.get("status"),
                 "speedup": e.get("speedup")} for e in run.events("kernel.result")]
    table = [{key: row.get(key) for key in COLUMNS} for row in rows]
    return {"rows": table, "summary": report.summary if report else {},
            "speedups": [{"label": f"{row['task']} · {row['solution']}", "speedup": row["speedup"],
                          "correct": bool(row.get("correct", row.get("status") == "correct"))}
                         for row in table if isinstance(row.get("speedup"), (int, float))]}
