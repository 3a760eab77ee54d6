"""Runs side by side: their summaries and report numbers in one table, and the curves they share (EvoKernel's
correctness and best speedup over attempts, PathWise's best gap over evaluations)."""

from __future__ import annotations

from typing import Any

from sandboxes.errors import UserError

from agents.runtime.run import Run
from agents.runtime.summary import summarize

MAX_RUNS = 12
SUMMARY_KEYS = ("agent", "status", "model", "steps", "calls", "prompt_tokens", "completion_tokens", "cost_usd", "best")


def compare(root: Any, ids: list[str]) -> dict[str, Any]:
    """The runs named by ``ids`` (a bench run's children stand in for it when it has children)."""
    runs = [Run.open(run_id, root) for run_id in ids]
    runs = [child for run in runs for child in _children(run, root)]
    if not runs:
        raise UserError("name the runs to compare: /compare?ids=ID,ID,...")
    if len(runs) > MAX_RUNS:
        raise UserError(f"compare at most {MAX_RUNS} runs at once ({len(runs)} given)")
    return {"runs": [_column(run) for run in runs]}


def _children(run: Run, root: Any) -> list[Run]:
    children = run.meta.get("children") or {}
    return [Run.open(child, root) for child in children.values()] if children else [run]


def _column(run: Run) -> dict[str, Any]:
    info = summarize(run)
    report = run.read_report()
    numbers = {key: value for key, value in (report.summary if report else {}).items()
               if isinstance(value, (int, float, str, bool)) and not str(value).startswith("/")}
    label = " · ".join(str(part) for part in (run.agent, run.config.get("method"), run.meta.get("model")) if part)
    return {"id": run.id, "label": label, "summary": {key: info.get(key) for key in SUMMARY_KEYS},
            "report": numbers, "curves": _curves(run)}


def _curves(run: Run) -> dict[str, list[float | None]]:
    if run.agent == "evokernel":
        from agents.ui.views.evokernel import view

        return view(run)["curves"]
    if run.agent == "pathwise":
        from agents.ui.views.pathwise import gap_curve

        return {"best_gap": [point["best"] for point in gap_curve(run.events("pathwise.node"))]}
    return {}
