"""Replication trials and the operational sample-size search.

A trial is a pair of runs of one planner on one MDP with the same shared seed and independent sample generators.
The replication rate is the share of pairs whose two policies are identical; the worst suboptimality is taken over
every returned policy against the exact optimum. "Samples needed" for a planner at a given S is the smallest
per-query sample size n on the doubling grid 2^k at which the replication rate over the pairs reaches 1 - rho AND
every returned policy is epsilon-optimal; what is reported there is the mean number of generator calls per run (n S A H
for the fixed-size planners, the measured mean for the adaptive one, whose n is only a cap).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from numerics.reprl.mdp import TabularMDP, backward_induction, random_mdp, suboptimality
from numerics.reprl.planners import PLANNERS


@dataclass(frozen=True)
class Trials:
    """Outcome of ``pairs`` replication trials at one sample size."""

    n: int
    replication: float
    worst_suboptimality: float
    samples_per_run: float  # mean generator calls of one run


@dataclass(frozen=True)
class Instances:
    """The MDPs the pairs cycle through, with their exact optimal stage-0 values."""

    mdps: list[TabularMDP]
    optimal: list[np.ndarray]

    @classmethod
    def draw(cls, states: int, actions: int, horizon: int, count: int, seed: int, tied: int) -> "Instances":
        mdps = [random_mdp(states, actions, horizon, seed + i, tied) for i in range(count)]
        return cls(mdps, [backward_induction(mdp)[0][0] for mdp in mdps])


def run_trials(instances: Instances, planner: str, n: int, epsilon: float, rho: float, pairs: int,
               seed: int) -> Trials:
    """``pairs`` pairs of runs; pair i uses MDP i mod count, shared seed ``seed + i``, fresh sample generators."""
    plan = PLANNERS[planner]
    agree, worst, calls = 0, 0.0, 0
    streams = np.random.SeedSequence(seed).spawn(2 * pairs)
    for i in range(pairs):
        mdp, optimal = instances.mdps[i % len(instances.mdps)], instances.optimal[i % len(instances.mdps)]
        runs = [plan(mdp, n, epsilon, rho, seed + i, np.random.default_rng(streams[2 * i + j])) for j in (0, 1)]
        agree += bool(np.array_equal(runs[0][0], runs[1][0]))
        for policy, used in runs:
            worst, calls = max(worst, suboptimality(mdp, policy, optimal)), calls + used
    return Trials(n, agree / pairs, worst, calls / (2 * pairs))


def samples_needed(instances: Instances, planner: str, epsilon: float, rho: float, pairs: int, seed: int,
                   start: int, doublings: int) -> tuple[Trials | None, list[Trials]]:
    """First n = start * 2^k (k < doublings) meeting both criteria, and every grid point tried on the way."""
    tried = []
    for k in range(doublings):
        trials = run_trials(instances, planner, start * 2**k, epsilon, rho, pairs, seed)
        tried.append(trials)
        if trials.replication >= 1 - rho and trials.worst_suboptimality <= epsilon:
            return trials, tried
    return None, tried


def loglog_slope(xs: list[float], ys: list[float]) -> float:
    """Least-squares slope of log y against log x."""
    return float(np.polyfit(np.log(np.asarray(xs, dtype=float)), np.log(np.asarray(ys, dtype=float)), 1)[0])
