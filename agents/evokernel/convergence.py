"""How fast runs converge, and confidence intervals for comparing them (the memory-effect benchmark).

A task's reference latency is the best any run of the benchmark found for it. A run's attempts to 90%
on a task is the first attempt after which its fastest correct kernel is within 90% of that speed
(latency <= reference / 0.9); a run that never gets there counts as budget + 1. Intervals are 95%
percentile bootstraps over tasks (each task keeps all its seeds), with a fixed generator.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Mapping, Sequence

import numpy as np

TARGET_FRACTION = 0.9
RESAMPLES = 10_000
Latencies = dict[str, list[float | None]]
"""Per task, the latency of each attempt in order (None: not correct)."""


def attempt_latencies(events: Sequence[Mapping]) -> Latencies:
    """Per task, the latency of each of its attempts, from a run's ``evokernel.attempt`` events."""
    found: dict[str, dict[int, float | None]] = {}
    for event in events:
        if event.get("kind") == "evokernel.attempt":
            latency = event.get("latency_ms") if event.get("feasible") else None
            found.setdefault(event["task"], {})[int(event["attempt"])] = latency
    return {task: [attempts[a] for a in sorted(attempts)] for task, attempts in found.items()}


def best_latencies(runs: Sequence[Latencies]) -> dict[str, float]:
    """Per task, the lowest latency any of ``runs`` reached."""
    best: dict[str, float] = {}
    for run in runs:
        for task, latencies in run.items():
            for latency in latencies:
                if latency and (task not in best or latency < best[task]):
                    best[task] = latency
    return best


def attempts_to_fraction(latencies: Sequence[float | None], reference: float, budget: int,
                         fraction: float = TARGET_FRACTION) -> int:
    """The first attempt whose best-so-far latency is within ``fraction`` of ``reference``'s speed (budget + 1
    when none is)."""
    for number, latency in enumerate(latencies, 1):
        if latency and latency <= reference / fraction:
            return number
    return budget + 1


@dataclass
class Interval:
    """A mean and its 95% bootstrap interval."""

    mean: float
    low: float
    high: float
    n: int

    def text(self, digits: int = 2) -> str:
        return f"{self.mean:.{digits}f} [{self.low:.{digits}f}, {self.high:.{digits}f}]"

    @property
    def excludes_zero(self) -> bool:
        return self.low > 0 or self.high < 0


def bootstrap(per_task: Mapping[str, Sequence[float]], seed: int = 0) -> Interval | None:
    """Mean over tasks of each task's mean over seeds, with a bootstrap interval over tasks."""
    means = np.array([np.mean(values) for values in per_task.values() if len(values)], dtype=float)
    if not len(means):
        return None
    rng = np.random.default_rng(seed)
    draws = rng.integers(0, len(means), size=(RESAMPLES, len(means)))
    resampled = means[draws].mean(axis=1)
    low, high = np.percentile(resampled, [2.5, 97.5])
    return Interval(float(means.mean()), float(low), float(high), len(means))


def paired(a: Mapping[str, Sequence[float]], b: Mapping[str, Sequence[float]], seed: int = 0) -> Interval | None:
    """The mean of a - b over the tasks both have (paired by seed within a task), with its interval."""
    diffs = {task: [x - y for x, y in zip(a[task], b[task])] for task in a if task in b}
    return bootstrap(diffs, seed)
