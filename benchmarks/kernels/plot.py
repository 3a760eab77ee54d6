"""The speedup plot (PNG) written to a bench run's directory."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from benchmarks.kernels.verifier.result import KernelResult


def speedup_plot(results: Sequence[KernelResult], labels: Sequence[str], path: Path, title: str) -> Path | None:
    """Bar chart of speedup per solution on a log axis (1x line marked); None when nothing was timed."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import matplotlib.ticker

    timed = [(label, r.speedup) for label, r in zip(labels, results) if r.speedup is not None]
    if not timed:
        return None
    timed.sort(key=lambda item: item[1])
    names, values = zip(*timed)
    figure, axis = plt.subplots(figsize=(8, max(2.5, 0.28 * len(names) + 1)))
    colours = ["tab:green" if v >= 1 else "tab:red" for v in values]
    axis.barh(range(len(names)), values, color=colours)
    axis.set_yticks(range(len(names)), names, fontsize=7)
    axis.set_xscale("log")
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
