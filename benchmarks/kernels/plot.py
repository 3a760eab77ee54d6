"""The speedup plot (PNG) written to a bench run's directory."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from benchmarks.kernels.verifier.result import KernelResult


def speedup_plot(results: Sequence[KernelResult], labels: Sequence[str], path: Path, title: str) -> Path | None:
    """Bar chart of speedup per solution on a log axis; each bar runs from 1x (parity) to its speedup, so
    faster solutions point right and slower ones left. None when nothing was timed."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker

    timed = [(label, r.speedup) for label, r in zip(labels, results) if r.speedup is not None and r.speedup > 0]
    if not timed:
        return None
    timed.sort(key=lambda item: item[1])
    names, values = zip(*timed)
    figure, axis = plt.subplots(figsize=(8, max(2.5, 0.28 * len(names) + 1)))
    colours = ["tab:green" if v >= 1 else "tab:red" for v in values]
    axis.barh(range(len(names)), [v - 1.0 for v in values], left=1.0, color=colours)
    for row, value in enumerate(values):
        axis.annotate(f"{value:.3g}x", (value, row), xytext=(3 if value >= 1 else -3, 0), textcoords="offset points",
                      ha="left" if value >= 1 else "right", va="center", fontsize=6)
    axis.set_yticks(range(len(names)), names, fontsize=7)
    axis.set_xscale("log")
    axis.set_xlim(*symmetric_limits(values))
    axis.xaxis.set_major_formatter(matplotlib.ticker.FuncFormatter(lambda value, _: f"{value:g}x"))
    axis.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
    axis.axvline(1.0, color="black", linewidth=0.8)
    axis.set_xlabel("speedup over reference (log scale)")
    axis.set_title(title, fontsize=9)
    figure.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, dpi=120)
    plt.close(figure)
    return path


def symmetric_limits(values: Sequence[float]) -> tuple[float, float]:
    """x limits centred on 1x in log space, wide enough for every bar and its label."""
    reach = max(max(values), 1 / min(values), 1.5) * 1.6
    return 1 / reach, reach
