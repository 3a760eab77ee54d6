"""Replicable statistical queries by randomised rounding, and the sample sizes that make them replicable.

A replicable SQ answers ``E[f(X)]`` for a bounded ``f`` with range ``b``: take the empirical mean of ``n`` fresh
samples, then round it to the grid ``u + w Z`` of width ``w`` whose offset ``u ~ U[0, w)`` comes from the shared
internal randomness, and return the centre of the cell. Two runs with the same offset but independent samples return
the same answer unless a grid point falls between their two empirical means. If both means are within ``t`` of the
truth (Hoeffding: each fails with probability at most ``delta`` when ``n >= b^2 ln(2 / delta) / (2 t^2)``), the
means are within ``2 t`` of each other and, over the uniform offset, a grid point separates them with probability at
most ``2 t / w``. So one query disagrees with probability at most ``2 delta + 2 t / w``, and its answer is within
``w / 2 + t`` of the truth.

With ``K`` queries, a union bound gives replicability ``rho`` from ``delta = rho / (4 K)`` and ``t = rho w / (4 K)``:
``n = 8 K^2 b^2 ln(8 K / rho) / (rho^2 w^2)`` samples per query. The rest is choosing ``K``, ``b`` and ``w``.

Ours (backward induction, one query per (s, a, h) for ``Q_h(s, a) = r + E[V_{h+1}(s')]`` against the already
rounded, hence already replicable, ``V_{h+1}``): ``K = S A H``, ``b = H`` and, since every stage adds at most
``eta = w / 2 + t <= w`` of error and the greedy policy of values off by ``H eta`` loses at most ``2 H eta``,
``w = epsilon / (2 H)``. Hence ``n = 32 S^2 A^2 H^6 ln(8 S A H / rho) / (rho^2 epsilon^2)`` per query and
``S A H n`` in all: ``S^3 A^3 H^7`` up to the logarithm. Fresh samples at every stage keep the stage-h queries
independent of the ``V_{h+1}`` they are asked against, which is what lets Hoeffding apply.

Allocating rho per state instead (one joint rounding of the A-vector ``Q_h(s, .)`` with a cube grid, or rounding only
the decision with a shared random threshold) does not change the S-exponent: a cube cell is crossed with probability
up to ``||Q_1 - Q_2||_1 / w``, the same ``A`` terms as the per-query union bound, and the ``S H`` states each carry
their own independent sampling noise of order ``H / sqrt(n)``, so some state disagrees with probability of order
``S A H^2 / (sqrt(n) w)`` whatever the per-state scheme; this forces ``n ~ S^2`` and ``S^3`` samples in all. The
paper's ``S^2`` needs the disagreement to scale with the l2 norm of the whole S-dimensional difference (``sqrt(S)``
times smaller than its l1 norm), i.e. an isoperimetric rounding of the joint vector; no efficient isoperimetric
tiling is known (Hopkins, Impagliazzo, Kane, Liu and Ye), and the known routes go through correlated sampling over a
high-dimensional body (exponential time). What does lower the exponent in polynomial time is adaptivity
(:mod:`numerics.reprl.adaptive`): the worst case stays ``S^3``, but the EXPECTED number of samples becomes linear in
``1 / rho'`` instead of quadratic, ``S^2 A^2`` in all. That is the planner called "ours"; the fixed-size queries of
this module are kept as the "fixed" planner so that both are measured side by side.

Naive baseline (replicably estimate every ``P_h(s'|s, a)`` and plan in the rounded model): ``K = S^2 A H``,
``b = 1``; rounding, clipping at 0 and renormalising keeps each row within ``l1 <= 2 S w`` of the truth, and the
simulation lemma loses ``2 H^2 l1``, so ``w = epsilon / (4 S H^2)``. Hence
``n = 128 S^6 A^2 H^6 ln(8 S^2 A H / rho) / (rho^2 epsilon^2)`` per (s, a, h) and ``S^7 A^3 H^7`` in all.
"""

from __future__ import annotations

import math

import numpy as np


def replicable_round(means: np.ndarray, width: float, offsets: np.ndarray) -> np.ndarray:
    """Centre of the cell of the grid ``offsets * width + width Z`` that holds each mean (``offsets`` in [0, 1))."""
    shift = offsets * width
    return np.floor((means - shift) / width) * width + shift + width / 2


def per_query_samples(queries: int, value_range: float, width: float, rho: float) -> int:
    """``n`` for which ``queries`` replicable SQs of range ``value_range`` on grid ``width`` all agree w.p. 1 - rho."""
    tolerance = rho * width / (4 * queries)
    return math.ceil(value_range**2 * math.log(8 * queries / rho) / (2 * tolerance**2))


def ours_width(epsilon: float, horizon: int) -> float:
    """Grid width of the value queries: H stages of error w each keep the greedy policy epsilon-optimal."""
    return epsilon / (2 * horizon)


def naive_width(epsilon: float, states: int, horizon: int) -> float:
    """Grid width of the transition-probability queries: row l1 error 2 S w, loss 2 H^2 l1 <= epsilon."""
    return epsilon / (4 * states * horizon**2)


def ours_samples(epsilon: float, rho: float, states: int, actions: int, horizon: int) -> int:
    """Theoretical per-query sample size of the replicable backward induction."""
    return per_query_samples(states * actions * horizon, horizon, ours_width(epsilon, horizon), rho)


def naive_samples(epsilon: float, rho: float, states: int, actions: int, horizon: int) -> int:
    """Theoretical per-(s, a, h) sample size of the naive model-estimation baseline."""
    return per_query_samples(states * states * actions * horizon, 1.0, naive_width(epsilon, states, horizon), rho)
