"""The candidate-term library for the discrepancy and sequentially thresholded least squares (STLSQ)."""

from __future__ import annotations

import numpy as np

from numerics.cheap2rich.model import derivatives

WAVENUMBERS = (1, 2, 3, 4)


def term_names() -> list[str]:
    """Polynomials in u, derivatives, and injector-like Fourier modes alone and times u."""
    names = ["1", "u", "u^2", "u^3", "u_x", "u_xx"]
    for k in WAVENUMBERS:
        names += [f"cos({k}x)", f"sin({k}x)", f"u*cos({k}x)", f"u*sin({k}x)"]
    return names


def _term(name: str, u: np.ndarray, x: np.ndarray, ux: np.ndarray, uxx: np.ndarray) -> np.ndarray:
    fixed = {"1": np.ones_like(u), "u": u, "u^2": u**2, "u^3": u**3, "u_x": ux, "u_xx": uxx}
    if name in fixed:
        return fixed[name]
    factor, _, wave = name.rpartition("*")
    function, k = wave[:3], int(wave[4:-2])
    mode = np.broadcast_to((np.cos if function == "cos" else np.sin)(k * x), u.shape)
    return u * mode if factor == "u" else mode.copy()


def evaluate_terms(u: np.ndarray, x: np.ndarray, names: list[str] | None = None) -> np.ndarray:
    """Theta(u): shape u.shape + (len(names),)."""
    ux, uxx = derivatives(u)
    return np.stack([_term(n, u, x, ux, uxx) for n in names or term_names()], axis=-1)


def stlsq(theta: np.ndarray, target: np.ndarray, *, threshold: float, iterations: int = 10) -> np.ndarray:
    """Sparse xi with theta @ xi ~ target: least squares on column-normalised theta, dropping small terms."""
    scale = np.linalg.norm(theta, axis=0)
    scale[scale == 0] = 1.0
    normalised = theta / scale
    active = np.ones(theta.shape[1], dtype=bool)
    xi = np.zeros(theta.shape[1])
    for _ in range(iterations):
        xi[:] = 0.0
        xi[active] = np.linalg.lstsq(normalised[:, active], target, rcond=None)[0]
        coefficients = xi / scale
        keep = active & (np.abs(coefficients) >= threshold)
        if keep.sum() == active.sum():
            break
        active = keep
    return xi / scale


def learn_discrepancy(states: np.ndarray, rates: np.ndarray, model, *, threshold: float = 0.05) -> dict[str, float]:
    """Fit ``rates - model.rhs(states)`` with the library; the nonzero terms, by name."""
    names = term_names()
    theta = evaluate_terms(states, model.x, names).reshape(-1, len(names))
    residual = (rates - model.rhs(states)).reshape(-1)
    xi = stlsq(theta, residual, threshold=threshold)
    return {name: float(c) for name, c in zip(names, xi) if c != 0.0}
