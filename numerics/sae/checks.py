"""The paper's toy check: sweep k, compare the proxy's chosen L0 with the true L0, plot the curves."""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Sequence

import torch

from numerics.sae.selection import SweepPoint, elbow, sweep, sweep_warning
from numerics.plotting import saved_figure
from numerics.sae.toy import make_toy_model


def toy_l0_check(out_dir: Path, *, ks: Sequence[int] = range(1, 22, 2), steps: int = 1500, seed: int = 0,
                 on_point: Callable[[SweepPoint], None] | None = None) -> tuple[dict, list[dict]]:
    """Return ``(summary, rows)`` with one row per k; writes ``sae_l0_sweep.png`` to ``out_dir``. The
    summary has a ``warning`` when the sweep cannot show the elbow (see :func:`sweep_warning`)."""
    toy = make_toy_model(seed=seed)
    generator = torch.Generator().manual_seed(seed + 1)
    held_out = toy.sample(4096, torch.Generator().manual_seed(seed + 99))[0]
    points = sweep(lambda n: toy.sample(n, generator)[0], held_out, list(ks), width=50, steps=steps,
                   directions=toy.directions, seed=seed, on_point=on_point)
    chosen = elbow(points)
    best = max(points, key=lambda p: p.recovery)
    summary = {"true_l0": round(toy.true_l0, 3), "chosen_l0": chosen, "recovery_peak_k": best.k,
               "proxy_within_2": abs(chosen - toy.true_l0) <= 2, "recovery_peak_within_2": abs(best.k - toy.true_l0) <= 2,
               "plot": str(plot_sweep(points, toy.true_l0, chosen, out_dir / "sae_l0_sweep.png"))}
    warning = sweep_warning(list(ks), chosen, toy.true_l0)
    if warning:
        summary["warning"] = warning
    rows = [{"k": p.k, "nth_decoder_projection": p.projection, "decoder_similarity": p.similarity,
             "feature_recovery": p.recovery, "mse": p.mse} for p in points]
    return summary, rows


def plot_sweep(points: Sequence[SweepPoint], true_l0: float, chosen: int, path: Path) -> Path:
    """Projection score and feature recovery against k, with the true and chosen L0 marked."""
    from matplotlib.ticker import MaxNLocator

    ks = [p.k for p in points]
    with saved_figure(path, figsize=(6.5, 4.6)) as (figure, left):
        left.plot(ks, [p.projection for p in points], "o-", color="tab:blue", label="n-th decoder projection")
        left.set(xlabel="k (SAE L0)", ylabel="n-th decoder projection")
        left.xaxis.set_major_locator(MaxNLocator(integer=True))
        right = left.twinx()
        right.plot(ks, [p.recovery for p in points], "s--", color="tab:green", label="feature recovery")
        right.set_ylabel("mean max cosine to true features")
        left.axvline(true_l0, color="gray", linestyle=":", label=f"true L0 {true_l0:.1f}")
        left.axvline(chosen, color="tab:red", linestyle="--", label=f"chosen L0 {chosen}")
        handles = left.get_legend_handles_labels()[0] + right.get_legend_handles_labels()[0]
        left.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2, fontsize=8,
                    frameon=False)  # below the axes: it covers no curve and no axis
    return path
