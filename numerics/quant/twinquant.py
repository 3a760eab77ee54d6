"""TwinQuant: W ~ L + R with L low rank in high precision and R quantised, each under its own learned transform.

- L = [W G]_r G^{-1}: the rank-r truncated SVD taken in the space of an invertible G (LU-parametrised).
  G chooses which directions stay in high precision.
- R = W - L is quantised as Q(R Q) Q^T with Q orthogonal (Cayley-parametrised on top of a fixed base).
- The start is the best pair of G in {I, diag(sqrt(E[x_j^2]))} (plain or activation-aware SVD) and base in
  {I, random Hadamard}, so the fit is never worse on calibration data than SVD + RTN or rotation + RTN of
  the residual.
- G and Q minimise the post-quantisation output error ||X (W - L - R^)^T||^2 / ||X W^T||^2 on calibration
  inputs; rounding passes gradients straight through. The best iterate (true quantised loss) is kept.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import torch

from numerics.lowrank.whiten import truncated_svd
from numerics.quant.rtn import fake_quantise
from numerics.quant.transforms import CayleyOrthogonal, LUInvertible, random_rotation


@dataclass(frozen=True)
class TwinQuantSettings:
    """Knobs of one TwinQuant fit."""

    rank: int = 8
    bits: int = 4
    group: int = 128
    steps: int = 40
    lr: float = 1e-4
    """Adam step size of the rotation's parameters."""
    transform_lr_ratio: float = 0.1
    """The low-rank transform's step size relative to ``lr``."""
    seed: int = 0


@dataclass
class TwinQuantFit:
    """The fitted pieces of one layer."""

    weight: torch.Tensor
    """L + dequantised R, (out, in), float64."""
    low_rank: torch.Tensor
    rotation: torch.Tensor
    """The learned orthogonal Q of the residual."""
    transform: torch.Tensor
    """The learned invertible G of the low-rank part."""
    transform_inverse: torch.Tensor
    losses: list[float] = field(default_factory=list)


def _relative_error(difference: torch.Tensor, moment: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    return torch.einsum("oi,ij,oj->", difference, moment, difference) / scale


def _reconstruct(weight, g, g_inverse, q, settings: TwinQuantSettings, straight_through: bool):
    u, s, v = truncated_svd(weight @ g, settings.rank)
    low_rank = (u * s) @ v.T @ g_inverse
    residual = fake_quantise((weight - low_rank) @ q, settings.bits, settings.group, straight_through) @ q.T
    return low_rank, low_rank + residual


def _best_start(w, moment, scale, settings: TwinQuantSettings) -> tuple[LUInvertible, CayleyOrthogonal]:
    """The initial (G, Q) pair with the lowest post-quantisation error."""
    starts = [(LUInvertible(diagonal), CayleyOrthogonal(base))
              for diagonal in (torch.ones(w.shape[1]), moment.diagonal().clamp_min(1e-8).sqrt())
              for base in (torch.eye(w.shape[1]), random_rotation(w.shape[1], settings.seed))]
    with torch.no_grad():
        losses = [_relative_error(w - _reconstruct(w, g(), g.inverse(), q(), settings, False)[1], moment, scale)
                  for g, q in starts]
    return starts[int(torch.stack(losses).argmin())]


def twinquant(weight: torch.Tensor, inputs: torch.Tensor, settings: TwinQuantSettings = TwinQuantSettings()
              ) -> TwinQuantFit:
    """Fit TwinQuant to one ``nn.Linear`` weight (out, in) on calibration inputs (samples, in)."""
    w = weight.detach().double()
    x = inputs.detach().double()
    moment = x.T @ x / len(x)
    scale = torch.einsum("oi,ij,oj->", w, moment, w)
    lu, cayley = _best_start(w, moment, scale, settings)
    optimiser = torch.optim.Adam([{"params": cayley.parameters(), "lr": settings.lr},
                                  {"params": lu.parameters(), "lr": settings.lr * settings.transform_lr_ratio}])
    best, best_state, losses = float("inf"), None, []
    for _ in range(settings.steps + 1):
        g, q = lu(), cayley()
        _, approx = _reconstruct(w, g, lu.inverse(), q, settings, straight_through=True)
        loss = _relative_error(w - approx, moment, scale)
        losses.append(loss.item())
        if losses[-1] < best:
            best, best_state = losses[-1], ({k: t.clone() for k, t in lu.state_dict().items()},
                                             {k: t.clone() for k, t in cayley.state_dict().items()})
        optimiser.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_([*lu.parameters(), *cayley.parameters()], 1.0)
        optimiser.step()
    lu.load_state_dict(best_state[0])
    cayley.load_state_dict(best_state[1])
    with torch.no_grad():
        g, g_inverse, q = lu(), lu.inverse(), cayley()
        low_rank, approx = _reconstruct(w, g, g_inverse, q, settings, straight_through=False)
    return TwinQuantFit(approx, low_rank, q, g, g_inverse, losses)


def twinquant_bits(shape: tuple[int, int], settings: TwinQuantSettings) -> float:
    """Stored bits per weight: the 4-bit residual with group scale/zero, plus the fp16 low-rank factors."""
    out_features, in_features = shape
    group = min(settings.group, in_features)
    return settings.bits + 32 / group + 16 * settings.rank * (out_features + in_features) / (out_features * in_features)
