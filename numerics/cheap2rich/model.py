"""The periodic 1-D front model: low fidelity, and high fidelity with injector forcing."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class FrontModel:
    """u_t = -c u_x + nu u_xx + r u (1 - u)(u - theta) + sum_k xi_k theta_k(u, x) on a ring of ``points`` cells.

    ``discrepancy`` maps library term names (see :mod:`numerics.cheap2rich.library`) to coefficients; empty
    means the low-fidelity model.
    """

    points: int = 64
    speed: float = 1.0
    diffusion: float = 0.02
    rate: float = 5.0
    threshold: float = 0.3
    discrepancy: dict[str, float] = field(default_factory=dict)

    @property
    def x(self) -> np.ndarray:
        return np.arange(self.points) * (2 * np.pi / self.points)

    def with_discrepancy(self, terms: dict[str, float]) -> "FrontModel":
        return FrontModel(self.points, self.speed, self.diffusion, self.rate, self.threshold, dict(terms))

    def rhs(self, u: np.ndarray) -> np.ndarray:
        """The time derivative of every state in ``u`` (shape (..., points))."""
        from numerics.cheap2rich.library import evaluate_terms

        ux, uxx = derivatives(u)
        base = -self.speed * ux + self.diffusion * uxx + self.rate * u * (1 - u) * (u - self.threshold)
        if not self.discrepancy:
            return base
        names = list(self.discrepancy)
        terms = evaluate_terms(u, self.x, names)
        return base + terms @ np.array([self.discrepancy[n] for n in names])


def derivatives(u: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Second-order central u_x and u_xx on the ring (last axis)."""
    dx = 2 * np.pi / u.shape[-1]
    right, left = np.roll(u, -1, axis=-1), np.roll(u, 1, axis=-1)
    return (right - left) / (2 * dx), (right - 2 * u + left) / dx**2


def high_fidelity(injectors: int = 3, modulation: float = 0.8, loss: float = 0.3) -> FrontModel:
    """The truth: the low-fidelity model plus ``modulation cos(injectors x) u - loss u``."""
    return FrontModel(discrepancy={f"u*cos({injectors}x)": modulation, "u": -loss})


def step(model: FrontModel, u: np.ndarray, dt: float) -> np.ndarray:
    """One classical Runge-Kutta step."""
    k1 = model.rhs(u)
    k2 = model.rhs(u + 0.5 * dt * k1)
    k3 = model.rhs(u + 0.5 * dt * k2)
    k4 = model.rhs(u + dt * k3)
    return u + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


def simulate(model: FrontModel, u0: np.ndarray, *, steps: int, dt: float = 0.01, every: int = 5) -> np.ndarray:
    """States (steps // every + 1, points) saved every ``every`` steps, starting with ``u0``."""
    u, saved = u0.copy(), [u0.copy()]
    for index in range(1, steps + 1):
        u = step(model, u, dt)
        if index % every == 0:
            saved.append(u.copy())
    return np.array(saved)


def random_front(points: int, rng: np.random.Generator) -> np.ndarray:
    """A burnt region of random width and position on fresh mixture, with small noise."""
    x = np.arange(points) * (2 * np.pi / points)
    centre, width = rng.uniform(0, 2 * np.pi), rng.uniform(0.6, 1.6)
    distance = np.angle(np.exp(1j * (x - centre)))
    return np.clip(1 / (1 + np.exp((np.abs(distance) - width) / 0.15)) + 0.02 * rng.standard_normal(points), 0, 1)
