"""EvoKernel's report: compile rate, correctness, the best kernels' quality in absolute terms (speedup
over the eager baseline and fraction of roofline, simulated on npu) beside the speedup over the first
draft, fast_p, tokens and cost, a per-task table and learning curves (see ``curves``)."""

from __future__ import annotations

import json
import statistics
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.report import Report

from agents.evokernel.curves import overall_curves, plot_curves, task_curves
from agents.evokernel.records import TaskState

FAST_P = (0.0, 1.0, 1.5, 2.0)
COLUMNS = ("task", "correct", "attempts", "best_ms", "speedup_over_eager", "roofline_fraction",
           "speedup_over_first_draft", "stopped")
"""The per-task columns the terminal table shows (the report files hold every column)."""
QUALITY_NOTE = ("Quality of the best kernels: speedup over the eager baseline (npu: the reference's operators "
                "one default template kernel each, with a global-memory round trip between them; cpu and gpu: the "
                "PyTorch reference as written) and fraction of roofline (compulsory global-memory bytes and matmul "
                "FLOPs at peak rates, where the target reports it); the speedup over the first correct draft says "
                "how much refinement added.")


def task_row(task: TaskState) -> dict[str, Any]:
    """One task: outcome, attempts, first-draft and best latency, speedups, profiler view."""
    best, first, reference = task["best_ms"], task["first_feasible_ms"], task["reference_ms"]
    extras = task.get("best_extras") or {}
    correct = task["first_feasible_attempt"] is not None
    return {
        "task": task["name"], "op_family": task["op_family"], "correct": correct, "compiled": task["compiled_any"],
        "attempts": task["attempts"], "first_feasible_attempt": task["first_feasible_attempt"],
        "first_draft_ms": _round(first), "best_ms": _round(best),
        "speedup_over_first_draft": _round(first / best) if correct and first and best else None,
        "reference_ms": _round(reference),
        "speedup_over_eager": _round(reference / best) if correct and reference and best else None,
        "bottleneck": extras.get("bottleneck"), "roofline_fraction": _round(extras.get("roofline_fraction")),
        "simulated": bool(extras.get("simulated")),
        "last_status": task["last_status"], "stopped": task["done_reason"],
    }


def summarise(tasks: dict[str, TaskState], budget: int) -> dict[str, Any]:
    """The headline numbers over all tasks (rates are fractions of tasks)."""
    rows = [task_row(t) for t in tasks.values()]
    count = len(rows) or 1
    speedups = [r["speedup_over_first_draft"] for r in rows if r["speedup_over_first_draft"]]
    over_eager = [r["speedup_over_eager"] for r in rows if r["speedup_over_eager"]]
    roofline = [r["roofline_fraction"] for r in rows if r["roofline_fraction"] is not None]
    attempts = [h for t in tasks.values() for h in t["history"]]
    return {
        "tasks": len(rows), "budget_per_task": budget,
        "compile_rate": _round(sum(r["compiled"] for r in rows) / count),
        "correctness": _round(sum(r["correct"] for r in rows) / count),
        "median_speedup_over_eager": _median(over_eager), "speedup_over_eager_iqr": _iqr(over_eager),
        "median_roofline_fraction": _median(roofline), "roofline_fraction_iqr": _iqr(roofline),
        "median_speedup_over_first_draft": _median(speedups), "speedup_over_first_draft_iqr": _iqr(speedups),
        "fast_p": {f"fast_{p:g}": _round(sum(1 for s in over_eager if s > p) / count) for p in FAST_P},
        "attempts": len(attempts),
        "attempt_feasible_rate": _round(sum(1 for h in attempts if h["feasible"]) / (len(attempts) or 1)),
    }


def best_line(summary: dict[str, Any]) -> str:
    """The run's result in a few words, for ``agent runs list``: tasks solved and the median speedup."""
    solved = round((summary["correctness"] or 0) * summary["tasks"])
    median = summary["median_speedup_over_eager"]
    return f"{solved}/{summary['tasks']} correct" + (f", median {median}x over eager" if median else "")


def learning_curve(tasks: dict[str, TaskState], budget: int) -> list[float]:
    """Fraction of tasks with a correct kernel within the first t attempts, for t = 1..budget."""
    return overall_curves([task_curves(t, budget) for t in tasks.values()], budget)["correctness"]


def build_report(tasks: dict[str, TaskState], *, budget: int, policy: str, method: str, target: str,
                 totals: dict[str, Any], artifacts: Path, title: str) -> Report:
    """The run's Report, with the learning curves (PNG and per-task JSON) written under ``artifacts``."""
    per_task = [task_curves(t, budget) for t in tasks.values()]
    overall = overall_curves(per_task, budget)
    shown = max([t["attempts"] for t in tasks.values()] + [1])
    simulated = target == "npu"
    plot = plot_curves(list(tasks), [{k: v[:shown] for k, v in c.items()} for c in per_task],
                       {k: v[:shown] for k, v in overall.items()}, artifacts / "learning_curve.png",
                       f"{method} on {target}: {len(tasks)} tasks", simulated)
    (artifacts / "learning_curves.json").write_text(json.dumps(
        {"overall": overall, "tasks": dict(zip(tasks, per_task))}, indent=1))
    summary = {"policy": policy, "method": method, "target": target, **summarise(tasks, budget),
               "simulated": simulated, "quality": QUALITY_NOTE + (" Simulated on npu." if simulated else ""),
               "tokens": totals.get("prompt_tokens", 0) + totals.get("completion_tokens", 0),
               "cost_usd": totals.get("cost_usd", 0.0), "model_calls": totals.get("calls", 0),
               "learning_curve": [round(v, 4) for v in overall["correctness"]],
               "speedup_over_eager_curve": [_round(v) for v in overall["speedup_over_eager"]],
               "learning_curve_plot": str(plot)}
    summary["best"] = best_line(summary)
    return Report(summary=summary, rows=[task_row(t) for t in tasks.values()], title=title, columns=list(COLUMNS))


def _median(values: list[float]) -> float | None:
    return _round(statistics.median(values)) if values else None


def _iqr(values: list[float]) -> list[float] | None:
    if not values:
        return None
    q25, q75 = np.percentile(values, [25, 75])
    return [round(float(q25), 4), round(float(q75), 4)]


def _round(value: float | None) -> float | None:
    return None if value is None else round(float(value), 4)
