"""The 1-D linear system dx = (a x + b u) dt + sigma dW under linear feedback u = -k x, with cost q x^2 + r u^2."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import minimize_scalar


@dataclass(frozen=True)
class LinearSystem:
    """The instance: drift ``a`` (unknown to the learner), input gain ``b``, noise ``sigma``, start ``x0``,
    horizon ``horizon`` and the quadratic cost weights."""

    a: float = 0.5
    b: float = 1.0
    sigma: float = 0.5
    x0: float = 1.0
    horizon: float = 5.0
    q: float = 1.0
    r: float = 0.1

    def closed_loop(self, gain: float, a: float | None = None) -> float:
        return (self.a if a is None else a) - self.b * gain

    def expected_cost(self, gain: float) -> float:
        """E of the integral of q x^2 + r u^2 over the horizon, in closed form."""
        alpha, horizon = self.closed_loop(gain), self.horizon
        grow = _expm1_over(2 * alpha, horizon)  # integral of exp(2 alpha t)
        mean_part = self.x0**2 * grow
        noise_part = self.sigma**2 * (grow - horizon) / (2 * alpha) if abs(alpha) > 1e-9 else self.sigma**2 * horizon**2 / 2
        return (self.q + self.r * gain**2) * (mean_part + noise_part)

    def best_gain(self) -> float:
        """The stationary gain with the least expected cost (the comparator of the regret)."""
        return float(minimize_scalar(self.expected_cost, bounds=(self.a / self.b, 50.0), method="bounded",
                                     options={"xatol": 1e-8}).x)


def _expm1_over(rate: float, horizon: float) -> float:
    """Integral of exp(rate t) over [0, horizon]."""
    return float(np.expm1(rate * horizon) / rate) if abs(rate) > 1e-12 else horizon


def transition(alpha: float, sigma: float, gap: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mean factor and variance of x(t + gap) given x(t) for dx = alpha x dt + sigma dW."""
    factor = np.exp(alpha * gap)
    variance = sigma**2 * (np.expm1(2 * alpha * gap) / (2 * alpha) if abs(alpha) > 1e-12 else gap)
    return factor, variance


def sample_path(system: LinearSystem, gain: float, times: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The exact state at the sorted ``times`` (0 excluded) of one episode started at ``x0``."""
    alpha = system.closed_loop(gain)
    factor, variance = transition(alpha, system.sigma, np.diff(np.concatenate([[0.0], times])))
    states, x = np.empty(len(times)), system.x0
    for index in range(len(times)):
        x = factor[index] * x + np.sqrt(variance[index]) * rng.standard_normal()
        states[index] = x
    return states


def cost_variance(system: LinearSystem, gain: float, rng: np.random.Generator, *, paths: int = 2000,
                  steps: int = 1000) -> float:
    """Variance of the total cost (minus the total reward) over ``paths`` exactly sampled fine-grid episodes."""
    dt = system.horizon / steps
    factor, variance = transition(system.closed_loop(gain), system.sigma, np.array(dt))
    x, total = np.full(paths, system.x0), np.zeros(paths)
    weight = system.q + system.r * gain**2
    for _ in range(steps):
        nxt = factor * x + np.sqrt(variance) * rng.standard_normal(paths)
        total += weight * 0.5 * (x**2 + nxt**2) * dt
        x = nxt
    return float(total.var())
