"""Adaptive replicable statistical queries: sample in doubling rounds until the confidence interval of the mean lies
inside one cell of the shared grid, so that the expected sample size is linear in 1/rho instead of quadratic.

This is the "adaptivity" relaxation of Hopkins, Impagliazzo, Kane, Liu and Ye (Replicability in High Dimensional
Statistics): a query only pays for many samples when the truth happens to lie near a grid boundary, and with a random
offset that is rare. Round k uses all ``n_k = n_0 2^k`` samples so far (the last round exactly ``n_max``) and the
Hoeffding radius ``c_k = b sqrt(ln(2 (K + 1) / delta) / (2 n_k))``, which holds at every round at once with probability
``1 - delta``. A query stops as soon as ``[mean - c_k, mean + c_k]`` fits in one cell and returns that cell's centre;
at round K it returns the cell of its mean.

Replicability: while the intervals hold they contain the truth ``q``, so a run that stops early returns q's own cell,
the same cell in both runs. A run reaches round K only if ``q`` is within ``2 c_K`` of a grid point, which the
uniform offset makes happen with probability at most ``4 c_K / w``. One query therefore disagrees with probability at
most ``2 delta + 4 c_K / w``; with K' queries, ``delta = rho / (4 K')`` and ``c_K = rho w / (16 K')`` give rho, i.e.
``n_max = 128 K'^2 b^2 L / (rho^2 w^2)`` (the worst case, as for a fixed-size query). Accuracy: within ``w / 2`` of the
truth when stopped early, ``w / 2 + c_K <= w`` otherwise, so the epsilon analysis of the fixed-size queries carries
over unchanged. Cost: a run still sampling after round k - 1 has ``q`` within ``2 c_{k-1}`` of a grid point (or a
failed interval), so ``E[n] <= n_0 + sum_k (n_k - n_{k-1}) min(1, 4 c_{k-1} / w + delta)``, of order
``b sqrt(L n_max) / w ~ K' b^2 L / (rho w^2)``: linear in ``K' / rho``, which is what brings the S-exponent of the
total expected samples of backward induction from 3 down to 2 (``K' = S A H`` queries, each ``~ S A H`` samples).
The worst case (every query unlucky) stays at ``n_max``.
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

FIRST_ROUND = 16


def rounds(n_max: int, first: int = FIRST_ROUND) -> list[int]:
    """Cumulative sample counts of the rounds: first, 2 first, 4 first, ... and finally n_max."""
    sizes = [first]
    while sizes[-1] * 2 < n_max:
        sizes.append(sizes[-1] * 2)
    return sizes + [n_max] if n_max > first else [n_max]


def radius(value_range: float, n: int, rounds_total: int, delta: float) -> float:
    """Hoeffding radius at ``n`` samples, union-bounded over ``rounds_total`` rounds."""
    return value_range * math.sqrt(math.log(2 * rounds_total / delta) / (2 * n))


def adaptive_queries(draw: Callable[[np.ndarray, int], np.ndarray], count: int, value_range: float, width: float,
                     offsets: np.ndarray, n_max: int, delta: float) -> tuple[np.ndarray, np.ndarray]:
    """Answers (count,) and samples used (count,) of ``count`` queries; ``draw(active, extra)`` returns the sums of
    ``extra`` fresh samples of f for the queries whose indices are ``active``."""
    sizes = rounds(n_max)
    sums, used = np.zeros(count), np.zeros(count, dtype=np.int64)
    answers = np.full(count, np.nan)
    active = np.arange(count)
    shift = offsets * width
    for n in _feasible(sizes, value_range, width, delta):
        sums[active] += draw(active, n - int(used[active[0]]))
        used[active] = n
        mean, c = sums[active] / n, radius(value_range, n, len(sizes), delta)
        low, high = np.floor((mean - c - shift[active]) / width), np.floor((mean + c - shift[active]) / width)
        done = (low == high) | (n == sizes[-1])
        cell = np.floor((mean - shift[active]) / width)
        answers[active[done]] = cell[done] * width + shift[active[done]] + width / 2
        active = active[~done]
        if not active.size:
            break
    return answers, used


def _feasible(sizes: list[int], value_range: float, width: float, delta: float) -> list[int]:
    """The rounds whose interval (2 c_k wide) can fit in a cell, and the last; earlier tests can never stop a
    query, so skipping them changes nothing but the bookkeeping."""
    fits = [n for n in sizes if 2 * radius(value_range, n, len(sizes), delta) <= width]
    return fits if fits and fits[-1] == sizes[-1] else fits + sizes[-1:]


def cap(queries: int, value_range: float, width: float, rho: float) -> int:
    """The analysis' n_max: ``c_K = rho w / (16 K')`` at ``delta = rho / (4 K')`` (solved with the round count)."""
    delta, n = rho / (4 * queries), 1
    for _ in range(5):  # the round count enters the log; a few passes settle it
        target = rho * width / (16 * queries)
        n = math.ceil(value_range**2 * math.log(2 * len(rounds(max(n, 2))) / delta) / (2 * target**2))
    return n


def expected_samples(queries: int, value_range: float, width: float, rho: float, n_max: int) -> float:
    """The analysis' bound on the expected samples of one query with cap ``n_max``."""
    sizes, delta = rounds(n_max), rho / (4 * queries)
    total, previous = float(sizes[0]), sizes[0]
    for n in sizes[1:]:
        stay = min(1.0, 4 * radius(value_range, previous, len(sizes), delta) / width + delta)
        total, previous = total + (n - previous) * stay, n
    return total
