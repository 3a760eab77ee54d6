"""The model-based learner: MLE of the drift from measured states, certainty-equivalent gains, measurement schedules."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy.optimize import minimize_scalar

from numerics.ctrl.system import LinearSystem, transition


def random_schedule(count: int, horizon: float, rng: np.random.Generator) -> np.ndarray:
    """``count`` sorted measurement times drawn uniformly over the horizon."""
    return np.sort(rng.uniform(0.0, horizon, count))


def fixed_schedule(count: int, horizon: float, rng: np.random.Generator | None = None) -> np.ndarray:
    """``count`` evenly spaced measurement times, the last at the horizon."""
    return np.linspace(horizon / count, horizon, count)


@dataclass
class Episode:
    """What one episode left: the gain it ran and the states measured at ``times``."""

    gain: float
    times: np.ndarray
    states: np.ndarray


@dataclass
class DriftMLE:
    """Maximum likelihood of the drift ``a`` from the state's marginal density: each measurement at time t is
    scored under N(x0 e^(alpha t), v(t)), the law of x(t) given only the start (a composite likelihood; it
    needs no measurement before it, so any schedule works)."""

    system: LinearSystem
    episodes: list[Episode] = field(default_factory=list)
    bounds: tuple[float, float] = (-5.0, 5.0)

    def negative_log_likelihood(self, a: float) -> float:
        total = 0.0
        for episode in self.episodes:
            alpha = self.system.closed_loop(episode.gain, a)
            factor, variance = transition(alpha, self.system.sigma, episode.times)
            residual = episode.states - factor * self.system.x0
            total += 0.5 * float(np.sum(residual**2 / variance + np.log(variance)))
        return total

    def estimate(self) -> float:
        if not self.episodes:
            return 0.0
        return float(minimize_scalar(self.negative_log_likelihood, bounds=self.bounds, method="bounded",
                                     options={"xatol": 1e-6}).x)


def certainty_equivalent_gain(system: LinearSystem, a_hat: float) -> float:
    """The best stationary gain of the system with its drift replaced by the estimate."""
    return LinearSystem(a=a_hat, b=system.b, sigma=system.sigma, x0=system.x0, horizon=system.horizon,
                        q=system.q, r=system.r).best_gain()
