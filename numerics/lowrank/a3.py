"""A^3: reduce each component's inner dimension to minimise that component's own output error.

Math convention: a head's query map is W_Q (d x d_h) so scores are x_i^T W_Q W_K^T x_j; its value/output
path is x W_V W_O. In ``nn.Linear`` terms W_Q is the head's rows of ``q.weight``, transposed.

- QK: minimise E[(x_i^T (M - M') x_j)^2] = ||S^{1/2}(M - M')S^{1/2}||_F^2 over rank-r M', M = W_Q W_K^T,
  S the attention input's second moment: truncated SVD of S^{1/2} M S^{1/2}, split symmetrically.
- OV: minimise ||Z (M - M')||_F with M = W_V W_O and Z = P X the head's attention-weighted inputs:
  truncated SVD of S_Z^{1/2} M.
- MLP: keep the neurons with the largest output contribution and refit the down projection by least squares.
The results are ordinary smaller weights (fewer query/key/value channels or neurons): no extra matmuls.
"""

from __future__ import annotations

from dataclasses import dataclass

import torch

from numerics.lowrank.whiten import second_moment, sqrt_and_inverse, truncated_svd

RIDGE = 1e-6


@dataclass
class Factors:
    """Two factors whose product A @ B (d x d) approximates a component's bilinear map."""

    left: torch.Tensor
    right: torch.Tensor

    def product(self) -> torch.Tensor:
        return self.left @ self.right


def reduce_qk(w_q: torch.Tensor, w_k: torch.Tensor, moment: torch.Tensor, rank: int) -> Factors:
    """New (W_Q', W_K'^T) of inner width ``rank`` minimising the whitened score error."""
    root, inverse_root = sqrt_and_inverse(moment)
    u, s, v = truncated_svd(root @ (w_q.double() @ w_k.double().T) @ root, rank)
    return Factors(inverse_root @ u * s.sqrt(), (inverse_root @ v * s.sqrt()).T)


def reduce_ov(w_v: torch.Tensor, w_o: torch.Tensor, weighted_moment: torch.Tensor, rank: int) -> Factors:
    """New (W_V', W_O') of inner width ``rank`` minimising the error on attention-weighted inputs."""
    root, inverse_root = sqrt_and_inverse(weighted_moment)
    u, s, v = truncated_svd(root @ (w_v.double() @ w_o.double()), rank)
    return Factors(inverse_root @ u, s[:, None] * v.T)


def qk_error(m: torch.Tensor, approx: torch.Tensor, moment: torch.Tensor) -> float:
    """||S^{1/2}(M - M')S^{1/2}||_F^2 (the expected squared score error for independent x_i, x_j)."""
    root, _ = sqrt_and_inverse(moment)
    return (root @ (m.double() - approx.double()) @ root).norm().item() ** 2


def ov_error(m: torch.Tensor, approx: torch.Tensor, weighted_moment: torch.Tensor) -> float:
    """||Z (M - M')||_F^2 / samples = tr(D^T S_Z D) with D = M - M'."""
    difference = m.double() - approx.double()
    return torch.trace(difference.T @ weighted_moment.double() @ difference).item()


def select_neurons(hidden: torch.Tensor, w_down: torch.Tensor, keep: int) -> torch.Tensor:
    """Indices (sorted) of the ``keep`` neurons with the largest ||h_j|| * ||W_down[j]||."""
    scores = hidden.double().norm(dim=0) * w_down.double().norm(dim=1)
    return scores.topk(keep).indices.sort().values


def refit_down(hidden: torch.Tensor, w_down: torch.Tensor, kept: torch.Tensor) -> torch.Tensor:
    """Least-squares W' (keep x d) with H[:, kept] W' ~ H W_down (ridge-damped normal equations)."""
    h = hidden.double()
    h_kept = h[:, kept]
    gram = h_kept.T @ h_kept
    gram += RIDGE * gram.diagonal().mean() * torch.eye(len(kept), dtype=gram.dtype)
    return torch.linalg.solve(gram, h_kept.T @ (h @ w_down.double()))


def weighted_inputs(probs: torch.Tensor, inputs: torch.Tensor) -> torch.Tensor:
    """Per head, P_h X flattened to (heads, samples, d) from probs (B, H, T, T) and inputs (B, T, d)."""
    mixed = probs.double() @ inputs.double()[:, None]
    return mixed.transpose(0, 1).flatten(1, 2)


def head_moments(probs: torch.Tensor, inputs: torch.Tensor) -> list[torch.Tensor]:
    """The second moment of each head's attention-weighted inputs."""
    return [second_moment(z) for z in weighted_inputs(probs, inputs)]
