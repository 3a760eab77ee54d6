"""Heterogeneous local objectives: least squares and L2-regularised logistic regression."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import minimize


@dataclass
class LocalProblem:
    """f(x) = Σ_i f_i(x) over nodes; each node holds (A_i, b_i). ``kind`` is ``lsq`` or ``logistic``."""

    kind: str
    features: np.ndarray  # (nodes, samples, dim)
    targets: np.ndarray   # (nodes, samples)
    l2: float = 0.0

    @property
    def dim(self) -> int:
        return self.features.shape[2]

    def gradients(self, points: np.ndarray) -> np.ndarray:
        """∇f_i(x_i) for every node at once; ``points`` is (nodes, dim)."""
        margins = np.einsum("nsd,nd->ns", self.features, points)
        if self.kind == "lsq":
            residual = margins - self.targets
        else:
            residual = -self.targets / (1.0 + np.exp(self.targets * margins))
        samples = self.features.shape[1]
        return np.einsum("nsd,ns->nd", self.features, residual) / samples + self.l2 * points

    def optimum(self, nodes: np.ndarray) -> np.ndarray:
        """The exact minimiser of Σ_{i in nodes} f_i."""
        a, b = self.features[nodes], self.targets[nodes]
        samples = a.shape[1]
        if self.kind == "lsq":
            hessian = np.einsum("nsd,nse->de", a, a) / samples + len(nodes) * self.l2 * np.eye(self.dim)
            return np.linalg.solve(hessian, np.einsum("nsd,ns->d", a, b) / samples)

        def objective(x: np.ndarray) -> tuple[float, np.ndarray]:
            margins = np.einsum("nsd,d->ns", a, x) * b
            loss = np.logaddexp(0.0, -margins).sum() / samples + 0.5 * len(nodes) * self.l2 * x @ x
            grad = np.einsum("nsd,ns->d", a, -b / (1.0 + np.exp(margins))) / samples + len(nodes) * self.l2 * x
            return loss, grad

        result = minimize(objective, np.zeros(self.dim), jac=True, method="L-BFGS-B",
                          options={"gtol": 1e-14, "ftol": 1e-16, "maxiter": 10_000})
        return result.x


def heterogeneous_problem(kind: str, nodes: int, *, dim: int = 10, samples: int = 50,
                          heterogeneity: float = 1.0, seed: int = 0) -> LocalProblem:
    """Each node's data come from its own shifted model, so local optima disagree (heterogeneity)."""
    rng = np.random.default_rng(seed)
    shared = rng.normal(size=dim)
    local = shared + heterogeneity * rng.normal(size=(nodes, dim))
    features = rng.normal(size=(nodes, samples, dim)) + heterogeneity * rng.normal(size=(nodes, 1, dim))
    scores = np.einsum("nsd,nd->ns", features, local)
    if kind == "lsq":
        return LocalProblem("lsq", features, scores + 0.1 * rng.normal(size=scores.shape), l2=0.0)
    if kind == "logistic":
        labels = np.where(rng.random(scores.shape) < 1.0 / (1.0 + np.exp(-scores)), 1.0, -1.0)
        return LocalProblem("logistic", features, labels, l2=0.05)
    raise ValueError(f"unknown problem kind {kind!r}; use lsq or logistic")
