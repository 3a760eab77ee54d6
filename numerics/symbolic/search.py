"""Stage 1: choose the structure, a set of (unknown, block) terms, by beam search on the fitted residual."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Sequence

import numpy as np
import sympy as sp
from scipy.optimize import least_squares

from numerics.symbolic.grammar import Block
from numerics.symbolic.residual import Problem

Term = tuple[str, Block]


@dataclass
class Candidate:
    """A structure with its fitted linear coefficients and residual."""

    terms: tuple[Term, ...]
    coefficients: np.ndarray
    residual: float

    def solution(self, unknowns: Sequence[str]) -> dict[str, sp.Expr]:
        """The closed forms at the grid values of the block constants."""
        result = {name: sp.Integer(0) for name in unknowns}
        for (name, block), value in zip(self.terms, self.coefficients):
            result[name] += sp.Float(value) * block.instantiate()
        return result


class Fitter:
    """Fits the coefficients of a structure: one lstsq for affine PDEs, Levenberg–Marquardt otherwise."""

    def __init__(self, problem: Problem, pool: Sequence[Term], linear: bool):
        self.problem, self.linear = problem, linear
        self.terms = [(name, block.instantiate()) for name, block in pool]
        if linear:
            self.base = problem.residual([], [])
            self.matrix = np.stack([problem.residual([term], [1.0]) - self.base for term in self.terms], axis=1)

    def fit(self, indices: Sequence[int]) -> tuple[np.ndarray, float]:
        if self.linear:
            matrix = self.matrix[:, list(indices)]
            coefficients, *_ = np.linalg.lstsq(matrix, -self.base, rcond=None)
            return coefficients, self.problem.rms(self.base + matrix @ coefficients)
        terms = [self.terms[i] for i in indices]
        with np.errstate(all="ignore"):
            fit = least_squares(lambda a: self.problem.residual(terms, a), np.ones(len(terms)), method="lm",
                                max_nfev=200 * (len(terms) + 1))
        return fit.x, (self.problem.rms(fit.fun) if np.all(np.isfinite(fit.fun)) else float("inf"))


def beam_search(fitter: Fitter, pool: Sequence[Term], *, max_terms: int = 3, beam: int = 4,
                tolerance: float = 1e-10) -> list[Candidate]:
    """Grow structures step by step, keeping the ``beam`` best; each step adds one term to every unknown
    at once (systems need their unknowns to move together). Stops early below ``tolerance``."""
    groups: dict[str, list[int]] = {}
    for index, (name, _) in enumerate(pool):
        groups.setdefault(name, []).append(index)
    frontier: list[tuple[int, ...]] = [()]
    scored: dict[tuple[int, ...], tuple[np.ndarray, float]] = {}
    for _ in range(max_terms):
        grown = []
        for indices in frontier:
            for addition in itertools.product(*groups.values()):
                key = tuple(sorted(set(indices) | set(addition)))
                if len(key) < len(indices) + len(addition) or key in scored:
                    continue
                scored[key] = fitter.fit(key)
                grown.append(key)
        if not grown:
            break
        frontier = sorted(grown, key=lambda key: scored[key][1])[:beam]
        if scored[frontier[0]][1] < tolerance:
            break
    ranked = sorted(scored, key=lambda key: (scored[key][1], len(key)))[:beam]
    return [Candidate(tuple(pool[i] for i in key), *scored[key]) for key in ranked]
