"""Run the three BRED checks, write the plots, and return one row per check with its verdict."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from numerics.decentralized.experiments import gap_sweep, no_attack, plot_curves, plot_gap_sweep, under_attack


def run_checks(out_dir: Path, *, quick: bool = False) -> tuple[dict, list[dict]]:
    """Return ``(summary, rows)``; plots go to ``out_dir``. ``quick`` shortens the runs for tests."""
    out_dir.mkdir(parents=True, exist_ok=True)
    iterations = 400 if quick else 1000
    rows = []
    for kind in ("lsq", "logistic"):
        curves = no_attack(kind, iterations=iterations)
        plot_curves(curves, f"{kind}: no attackers", out_dir / f"bred_no_attack_{kind}.png")
        bred, dsgd = curves["bred"][-1], curves["dsgd"][-1]
        rows.append({"check": f"no attack ({kind}): BRED exact, DSGD floor", "passed": bool(bred < 1e-6 and bred < 1e-4 * dsgd),
                     "detail": f"final error BRED {bred:.2e}, BRED-M {curves['bred-m'][-1]:.2e}, "
                               f"ED {curves['ed'][-1]:.2e}, DSGD {dsgd:.2e}"})
    attack_rows = under_attack("lsq", iterations=300 if quick else 600)
    wins = sum(row["bred"] < row["ed"] for row in attack_rows)
    rows.append({"check": "under attack: BRED < ED with the same aggregator", "passed": wins == len(attack_rows),
                 "detail": "; ".join(f"{r['aggregator']}/{r['attack']}: ED {r['ed']:.3g} BRED {r['bred']:.3g} "
                                     f"BRED-M {r['bred-m']:.3g} DSGD {r['dsgd']:.3g}" for r in attack_rows)})
    sweep = gap_sweep(iterations=600)
    plot_gap_sweep(sweep, out_dir / "bred_gap_sweep.png")
    floors = [row["dsgd_floor"] for row in sweep]
    advantage = [row["dsgd_attacked"] / row["bred_attacked"] for row in sweep]
    rows.append({"check": "smaller spectral gap: DSGD floor grows, BRED stays near exact",
                 "passed": bool(np.all(np.diff(floors) > 0) and all(r["bred_clean"] < 1e-4 * r["dsgd_floor"] for r in sweep)),
                 "detail": ", ".join(f"gap {r['spectral_gap']:.3f}: DSGD floor {r['dsgd_floor']:.3g}, BRED {r['bred_clean']:.2g}"
                                     for r in sweep)})
    rows.append({"check": "smaller spectral gap: BRED's advantage over DSGD under Gaussian attack grows",
                 "passed": bool(advantage[-1] > advantage[0]),
                 "detail": ", ".join(f"gap {r['spectral_gap']:.3f}: {a:.2f}x" for r, a in zip(sweep, advantage))})
    summary = {"checks": len(rows), "passed": sum(r["passed"] for r in rows), "plots": str(out_dir)}
    return summary, rows
