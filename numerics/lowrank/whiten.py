"""Second moments and their symmetric square roots, the whitening shared by A^3 and SVD-LLM."""

from __future__ import annotations

import torch

DAMPING = 1e-6


def second_moment(inputs: torch.Tensor) -> torch.Tensor:
    """E[x x^T] over the rows of ``inputs`` (samples, dim), in float64."""
    inputs = inputs.double()
    return inputs.T @ inputs / inputs.shape[0]


def sqrt_and_inverse(moment: torch.Tensor, damping: float = DAMPING) -> tuple[torch.Tensor, torch.Tensor]:
    """(S^{1/2}, S^{-1/2}) of a symmetric PSD matrix, damped by ``damping * mean eigenvalue``."""
    moment = moment.double()
    eigenvalues, vectors = torch.linalg.eigh(moment)
    floor = damping * eigenvalues.clamp_min(0).mean().clamp_min(1e-30)
    eigenvalues = eigenvalues.clamp_min(0) + floor
    root = (vectors * eigenvalues.sqrt()) @ vectors.T
    inverse_root = (vectors / eigenvalues.sqrt()) @ vectors.T
    return root, inverse_root


def truncated_svd(matrix: torch.Tensor, rank: int) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """The leading ``rank`` singular triplets (U_r, s_r, V_r) of ``matrix``."""
    u, s, vh = torch.linalg.svd(matrix, full_matrices=False)
    return u[:, :rank], s[:rank], vh[:rank].T
