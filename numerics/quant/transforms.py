"""Learned transforms: orthogonal by the Cayley map, invertible by an LU factorisation; and Hadamard rotations."""

from __future__ import annotations

import math

import torch
import torch.nn as nn


class CayleyOrthogonal(nn.Module):
    """Q = base (I - A)^{-1} (I + A) with A skew-symmetric; orthogonal for every parameter value."""

    def __init__(self, base: torch.Tensor):
        super().__init__()
        self.register_buffer("base", base.double())
        self.raw = nn.Parameter(torch.zeros_like(self.base))

    def forward(self) -> torch.Tensor:
        skew = (self.raw - self.raw.T) / 2
        eye = torch.eye(len(skew), dtype=skew.dtype)
        return self.base @ torch.linalg.solve(eye - skew, eye + skew)


class LUInvertible(nn.Module):
    """G = L (U + diag(sign * exp(s))) with L unit lower-triangular: invertible for every parameter value."""

    def __init__(self, diagonal: torch.Tensor):
        super().__init__()
        size = len(diagonal)
        self.lower = nn.Parameter(torch.zeros(size, size, dtype=torch.float64))
        self.upper = nn.Parameter(torch.zeros(size, size, dtype=torch.float64))
        self.register_buffer("sign", torch.sign(diagonal.double()) + (diagonal == 0).double())
        self.log_diagonal = nn.Parameter(diagonal.double().abs().clamp_min(1e-12).log())

    def factors(self) -> tuple[torch.Tensor, torch.Tensor]:
        eye = torch.eye(len(self.sign), dtype=torch.float64)
        lower = torch.tril(self.lower, -1) + eye
        upper = torch.triu(self.upper, 1) + torch.diag(self.sign * self.log_diagonal.exp())
        return lower, upper

    def forward(self) -> torch.Tensor:
        lower, upper = self.factors()
        return lower @ upper

    def inverse(self) -> torch.Tensor:
        """G^{-1} by two triangular solves."""
        lower, upper = self.factors()
        eye = torch.eye(len(self.sign), dtype=torch.float64)
        return torch.linalg.solve_triangular(upper, torch.linalg.solve_triangular(lower, eye, upper=False,
                                                                                    unitriangular=True), upper=True)


def hadamard(size: int) -> torch.Tensor:
    """The normalised Sylvester Hadamard matrix; ``size`` must be a power of two."""
    if size < 1 or size & (size - 1):
        raise ValueError(f"Hadamard size must be a power of two; got {size}")
    matrix = torch.ones(1, 1, dtype=torch.float64)
    while len(matrix) < size:
        matrix = torch.cat([torch.cat([matrix, matrix], 1), torch.cat([matrix, -matrix], 1)], 0)
    return matrix / math.sqrt(size)


def random_rotation(size: int, seed: int = 0) -> torch.Tensor:
    """Randomised Hadamard (H with random column signs) when ``size`` is a power of two, else a Haar rotation."""
    generator = torch.Generator().manual_seed(seed)
    signs = torch.randint(0, 2, (size,), generator=generator).double() * 2 - 1
    if size & (size - 1) == 0:
        return signs[:, None] * hadamard(size)
    q, r = torch.linalg.qr(torch.randn(size, size, generator=generator, dtype=torch.float64))
    return q * torch.sign(torch.diagonal(r))
