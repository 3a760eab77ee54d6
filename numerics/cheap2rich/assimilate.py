"""Reconstruction from sparse sensor histories: a model-driven filter and a purely data-driven regression."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from numerics.cheap2rich.model import FrontModel, step


@dataclass(frozen=True)
class Sensors:
    """Point sensors at ``indices`` of the grid, read every saved step with Gaussian ``noise``."""

    indices: np.ndarray
    noise: float

    def read(self, states: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        """Noisy readings (time, sensors) of a trajectory (time, points)."""
        clean = states[:, self.indices]
        return clean + self.noise * rng.standard_normal(clean.shape)


def evenly_spaced(points: int, count: int, noise: float) -> Sensors:
    return Sensors(np.linspace(0, points, count, endpoint=False).astype(int), noise)


def gain(points: int, sensors: Sensors, *, spread: float = 0.5, length: float = 0.4) -> np.ndarray:
    """Optimal-interpolation gain K = B H^T (H B H^T + R)^-1 with a Gaussian prior covariance on the ring."""
    x = np.arange(points) * (2 * np.pi / points)
    distance = np.abs(np.angle(np.exp(1j * (x[:, None] - x[None, :]))))
    background = spread**2 * np.exp(-0.5 * (distance / length) ** 2)
    cross = background[:, sensors.indices]
    innovation = cross[sensors.indices] + sensors.noise**2 * np.eye(len(sensors.indices))
    return cross @ np.linalg.inv(innovation)


def filter_states(model: FrontModel, readings: np.ndarray, sensors: Sensors, *, dt: float = 0.01,
                  every: int = 5, start: float = 0.3) -> np.ndarray:
    """Forecast with ``model`` between readings, correct at each reading; the analysed states (time, points)."""
    k = gain(model.points, sensors)
    u = np.full(model.points, start)
    analysed = []
    for reading in readings:
        u = np.clip(u + k @ (reading - u[sensors.indices]), -0.5, 1.5)
        analysed.append(u.copy())
        for _ in range(every):
            u = step(model, u, dt)
    return np.array(analysed)


def delay_features(readings: np.ndarray, lags: int) -> np.ndarray:
    """Row t holds readings t, t-1, ..., t-lags+1 (earlier rows repeat the first reading) and a constant."""
    padded = np.concatenate([np.repeat(readings[:1], lags - 1, axis=0), readings])
    rows = [padded[lags - 1 - lag: len(padded) - lag] for lag in range(lags)]
    return np.concatenate(rows + [np.ones((len(readings), 1))], axis=1)


@dataclass
class DelayRegression:
    """The purely data-driven reconstruction: ridge regression from a sensor-history window to the full state."""

    lags: int = 10
    ridge: float = 1e-3
    weights: np.ndarray | None = None

    def fit(self, readings: list[np.ndarray], states: list[np.ndarray]) -> "DelayRegression":
        features = np.concatenate([delay_features(r, self.lags) for r in readings])
        targets = np.concatenate(states)
        gram = features.T @ features + self.ridge * len(features) * np.eye(features.shape[1])
        self.weights = np.linalg.solve(gram, features.T @ targets)
        return self

    def predict(self, readings: np.ndarray) -> np.ndarray:
        if self.weights is None:
            raise RuntimeError("fit the regression before predicting")
        return delay_features(readings, self.lags) @ self.weights


def relative_error(estimate: np.ndarray, truth: np.ndarray, *, skip: int = 0) -> float:
    """||estimate - truth|| / ||truth|| over the times after ``skip``."""
    return float(np.linalg.norm(estimate[skip:] - truth[skip:]) / np.linalg.norm(truth[skip:]))
