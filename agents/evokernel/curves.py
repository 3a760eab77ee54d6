"""Learning curves from the tasks' histories: correctness and the best speedup against attempts.

Per task, after attempt t: whether a correct kernel exists, and the speedup of the fastest correct
kernel so far over the eager baseline (``reference_ms / best latency``; simulated on npu) and over the
task's first correct draft. Overall: the fraction of tasks correct, and the geometric means of the
speedups over the tasks correct by then. A task that stopped early keeps its last value.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, Sequence

from agents.evokernel.records import TaskState


def best_so_far(task: TaskState, length: int) -> list[tuple[float | None, float | None]]:
    """(best latency, its eager reference) after each of the first ``length`` attempts (None: none correct)."""
    best: tuple[float | None, float | None] = (None, None)
    values = []
    history = sorted(task["history"], key=lambda h: h["attempt"])
    for t in range(1, length + 1):
        for item in (h for h in history if h["attempt"] == t):
            latency = item["latency_ms"] if item["feasible"] else None
            if latency and (best[0] is None or latency < best[0]):
                best = (latency, item.get("reference_ms"))
        values.append(best)
    return values


def task_curves(task: TaskState, length: int) -> dict[str, list[Any]]:
    """One task's correctness (0/1), speedup over eager and over its first correct draft, per attempt."""
    first = task["first_feasible_ms"]
    points = best_so_far(task, length)
    return {"correct": [int(latency is not None) for latency, _ in points],
            "speedup_over_eager": [reference / latency if latency and reference else None
                                   for latency, reference in points],
            "speedup_over_first_draft": [first / latency if latency and first else None for latency, _ in points]}


def overall_curves(per_task: Sequence[dict[str, list[Any]]], length: int) -> dict[str, list[float | None]]:
    """Fraction of tasks correct, and geometric-mean speedups over the tasks correct, per attempt."""
    count = len(per_task) or 1
    return {"correctness": [sum(c["correct"][t] for c in per_task) / count for t in range(length)],
            "speedup_over_eager": [_geomean([c["speedup_over_eager"][t] for c in per_task]) for t in range(length)],
            "speedup_over_first_draft": [_geomean([c["speedup_over_first_draft"][t] for c in per_task])
                                         for t in range(length)]}


def _geomean(values: Sequence[float | None]) -> float | None:
    present = [v for v in values if v]
    return math.exp(sum(math.log(v) for v in present) / len(present)) if present else None


def plot_curves(names: Sequence[str], per_task: Sequence[dict[str, list[Any]]], overall: dict[str, list[Any]],
                path: Path, title: str, simulated: bool) -> Path:
    """Save a two-panel PNG: correctness, then the best speedups (one thin line per task, the means bold;
    1.0 marked: no faster than the baseline)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    length = len(overall["correctness"])
    x = list(range(1, length + 1))
    figure, (top, bottom) = plt.subplots(2, 1, figsize=(7, 7), sharex=True, height_ratios=(1, 1.6))
    top.step(x, overall["correctness"], where="post", color="tab:green", linewidth=2)
    top.set_ylabel("correct (fraction)")
    top.set_ylim(-0.02, 1.05)
    top.set_title(title)
    label = " (simulated)" if simulated else ""
    for curve in per_task:
        bottom.step(x, [v if v else math.nan for v in curve["speedup_over_eager"]], where="post",
                    color="0.6", linewidth=0.7, alpha=0.6)
    bottom.step(x, _nan(overall["speedup_over_eager"]), where="post", color="tab:blue", linewidth=2.2,
                label=f"over the eager baseline{label}, geomean")
    bottom.step(x, _nan(overall["speedup_over_first_draft"]), where="post", color="tab:orange", linewidth=2.2,
                linestyle="--", label="over the first correct draft, geomean")
    bottom.axhline(1.0, color="0.3", linewidth=0.8)
    bottom.set_ylabel("best speedup so far (x)")
    bottom.set_xlabel("attempt")
    bottom.xaxis.set_major_locator(MaxNLocator(integer=True))
    bottom.legend(loc="upper center", bbox_to_anchor=(0.5, -0.16), ncol=2, fontsize=8, frameon=False,
                  title=f"thin grey lines: each of the {len(names)} tasks, over the eager baseline", title_fontsize=8)
    for axes in (top, bottom):
        axes.grid(alpha=0.3, which="both")
    figure.tight_layout()
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path


def _nan(values: Sequence[float | None]) -> list[float]:
    return [v if v else math.nan for v in values]
