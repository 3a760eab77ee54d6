"""PopArt-style running normalisation of rewards (exponential running mean and second moment)."""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass
class PopArt:
    """Normalise a reward by running statistics updated with step ``beta``.

    Starts at mean 0 and second moment 1 (unit scale). Each ``normalise(r)`` first moves the
    statistics towards ``r`` and then returns ``(r - mean) / std``, with ``std`` floored at ``min_std``.
    """

    beta: float = 0.1
    min_std: float = 1e-2
    mean: float = 0.0
    second: float = 1.0
    count: int = 0

    @property
    def std(self) -> float:
        return math.sqrt(max(self.second - self.mean**2, self.min_std**2))

    def normalise(self, reward: float) -> float:
        """Update the statistics with ``reward`` and return it normalised."""
        self.mean = (1.0 - self.beta) * self.mean + self.beta * reward
        self.second = (1.0 - self.beta) * self.second + self.beta * reward * reward
        self.count += 1
        return (reward - self.mean) / self.std
