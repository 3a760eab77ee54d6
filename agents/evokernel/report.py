"""EvoKernel's report: compile rate, correctness, speedup over the first draft, fast_p, roofline,
tokens and cost, a per-task table and a learning curve (correctness against attempt index)."""

from __future__ import annotations

import statistics
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.report import Report

FAST_P = (0.0, 1.0, 1.5, 2.0)


def task_row(task: dict[str, Any]) -> dict[str, Any]:
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
        "speedup_vs_reference": _round(reference / best) if correct and reference and best else None,
        "bottleneck": extras.get("bottleneck"), "roofline_fraction": _round(extras.get("roofline_fraction")),
        "simulated": bool(extras.get("simulated")),
        "last_status": task["last_status"], "stopped": task["done_reason"],
    }


def summarise(tasks: dict[str, dict[str, Any]], budget: int) -> dict[str, Any]:
    """The headline numbers over all tasks (rates are fractions of tasks)."""
    rows = [task_row(t) for t in tasks.values()]
    count = len(rows) or 1
    speedups = [r["speedup_over_first_draft"] for r in rows if r["speedup_over_first_draft"]]
    vs_reference = [r["speedup_vs_reference"] if r["correct"] else None for r in rows]
    roofline = [r["roofline_fraction"] for r in rows if r["roofline_fraction"] is not None]
    attempts = [h for t in tasks.values() for h in t["history"]]
    summary = {
        "tasks": len(rows), "budget_per_task": budget,
        "compile_rate": _round(sum(r["compiled"] for r in rows) / count),
        "correctness": _round(sum(r["correct"] for r in rows) / count),
        "median_speedup_over_first_draft": _round(statistics.median(speedups)) if speedups else None,
        "speedup_over_first_draft_iqr": _iqr(speedups),
        "fast_p": {f"fast_{p:g}": _round(sum(1 for s in vs_reference if s is not None and s > p) / count)
                   for p in FAST_P},
        "median_roofline_fraction": _round(statistics.median(roofline)) if roofline else None,
        "attempts": len(attempts),
        "attempt_feasible_rate": _round(sum(1 for h in attempts if h["feasible"]) / (len(attempts) or 1)),
    }
    return summary


def learning_curve(tasks: dict[str, dict[str, Any]], budget: int) -> list[float]:
    """Fraction of tasks with a correct kernel within the first t attempts, for t = 1..budget."""
    firsts = [t["first_feasible_attempt"] for t in tasks.values()]
    count = len(firsts) or 1
    return [sum(1 for f in firsts if f is not None and f <= t) / count for t in range(1, budget + 1)]


def plot_learning_curve(curve: list[float], path: Path, title: str) -> Path:
    """Save correctness against attempt index as a PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    figure, axes = plt.subplots(figsize=(6, 3.5))
    axes.step(range(1, len(curve) + 1), curve, where="post")
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    axes.set_xlabel("attempt index")
    axes.set_ylabel("correctness (fraction of tasks)")
    axes.set_ylim(0, 1.02)
    axes.set_title(title)
    axes.grid(alpha=0.3)
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path


def build_report(tasks: dict[str, dict[str, Any]], *, budget: int, policy: str, method: str, target: str,
                 totals: dict[str, Any], artifacts: Path, title: str) -> Report:
    """The run's Report, with the learning-curve PNG written under ``artifacts``."""
    curve = learning_curve(tasks, budget)
    plot = plot_learning_curve(curve, artifacts / "learning_curve.png", f"{method} on {target}")
    summary = {"policy": policy, "method": method, "target": target, **summarise(tasks, budget),
               "simulated": target == "npu", "tokens": totals.get("prompt_tokens", 0) + totals.get(
                   "completion_tokens", 0), "cost_usd": totals.get("cost_usd", 0.0), "model_calls": totals.get("calls", 0),
               "learning_curve": [round(v, 4) for v in curve], "learning_curve_plot": str(plot)}
    return Report(summary=summary, rows=[task_row(t) for t in tasks.values()], title=title)


def _iqr(values: list[float]) -> list[float] | None:
    if not values:
        return None
    q25, q75 = np.percentile(values, [25, 75])
    return [round(float(q25), 4), round(float(q75), 4)]


def _round(value: float | None) -> float | None:
    return None if value is None else round(float(value), 4)
