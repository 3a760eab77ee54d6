"""The EPSVec checks: fidelity rises with epsilon; a reused DP vector's cost does not grow with the samples; a
baseline that spends the budget per sample loses fidelity as the samples grow; the accounting itself."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import torch

from numerics.epsvec.pipeline import Setup, SetupConfig, build, fidelity, fresh_vectors, generate, reused_vector
from numerics.epsvec.privacy import analytic_sigma, classical_sigma, composed_epsilon, gdp_delta
from numerics.epsvec.report import accounting_row, count_rows, epsilon_row

@dataclass(frozen=True)
class CheckConfig:
    """The sweeps: epsilons, noise draws averaged, samples per figure, and the sample counts compared."""

    setup: SetupConfig = field(default_factory=SetupConfig)
    epsilons: tuple[float, ...] = (0.1, 0.3, 1.0, 3.0, 10.0)
    draws: int = 3
    samples: int = 200
    counts: tuple[int, ...] = (10, 100, 1000)
    count_epsilon: float = 1.0


def _mean(results: list[dict]) -> dict:
    return {key: float(np.mean([r[key] for r in results])) for key in results[0]}


def epsilon_sweep(setup: Setup, config: CheckConfig) -> dict[str, dict]:
    """Mean fidelity per epsilon (over noise draws; at inf over as many sampling runs of the one exact vector),
    with the no-vector row."""
    rng, generator = np.random.default_rng(setup.config.seed), torch.Generator().manual_seed(setup.config.seed)
    zero = np.zeros(setup.data.clipped.shape[1])
    table = {"no vector": fidelity(setup, generate(setup, zero, config.samples, generator))}
    for epsilon in (*config.epsilons, math.inf):
        runs = [fidelity(setup, generate(setup, reused_vector(setup, epsilon, rng)[0], config.samples, generator))
                for _ in range(config.draws)]
        table[f"{epsilon:g}"] = _mean(runs)
    return table


def count_sweep(setup: Setup, config: CheckConfig) -> list[dict]:
    """At a fixed total epsilon, per sample count: epsilon spent and fidelity of EPSVec (the same released
    vectors for every count, as a reused vector is) and of the baseline (fresh vectors per sample)."""
    rng, generator = np.random.default_rng(setup.config.seed + 1), torch.Generator().manual_seed(setup.config.seed + 1)
    epsilon, delta, clip = config.count_epsilon, setup.config.delta, setup.data.clip
    released = [reused_vector(setup, epsilon, rng) for _ in range(config.draws)]
    sigma = released[0][1]
    rows = []
    for count in config.counts:
        ours = [fidelity(setup, generate(setup, vector, count, generator)) for vector, _ in released]
        theirs = []
        for _ in range(config.draws):
            vectors, fresh_sigma = fresh_vectors(setup, epsilon, count, rng)
            theirs.append(fidelity(setup, generate(setup, vectors, count, generator)))
        rows.append({"samples": count, "draws": config.draws, "epsvec_epsilon": epsilon, "epsvec_sigma": sigma,
                     "epsvec": _mean(ours), "baseline_epsilon": epsilon, "baseline_sigma": fresh_sigma,
                     "baseline": _mean(theirs),
                     "fresh_at_epsvec_noise_epsilon": composed_epsilon(sigma, clip, count, delta)})
    return rows


def accounting(setup: Setup, config: CheckConfig) -> dict:
    """Sigma per epsilon (analytic and classical) and the delta the analytic sigma actually achieves."""
    delta, clip = setup.config.delta, setup.data.clip
    rows = {}
    for epsilon in config.epsilons:
        sigma = analytic_sigma(epsilon, delta, clip)
        rows[f"{epsilon:g}"] = {"analytic": sigma, "classical": classical_sigma(epsilon, delta, clip),
                                "achieved_delta": gdp_delta(clip / sigma, epsilon)}
    return rows


def run_check(config: CheckConfig = CheckConfig()) -> tuple[dict, list[dict]]:
    """Build the set-up once and run the three sweeps."""
    setup = build(config.setup)
    sweep, counts, sigmas = epsilon_sweep(setup, config), count_sweep(setup, config), accounting(setup, config)
    summary = {"config": {**config.setup.__dict__, "epsilons": list(config.epsilons), "draws": config.draws,
                          "samples": config.samples, "counts": list(config.counts),
                          "count_epsilon": config.count_epsilon},
               "clipped_share": setup.data.clipped_share, "epsilon_sweep": sweep, "count_sweep": counts,
               "accounting": sigmas}
    rows = _rows(setup, config, sweep, counts, sigmas)
    summary.update(passed=sum(row["passed"] for row in rows), checks=len(rows))
    return summary, rows


def _rows(setup: Setup, config: CheckConfig, sweep: dict, counts: list[dict], sigmas: dict) -> list[dict]:
    return [epsilon_row(sweep, config.epsilons, config.samples * config.draws), *count_rows(counts, config.count_epsilon),
            accounting_row(sigmas, setup.config.delta, setup.data.clip)]
