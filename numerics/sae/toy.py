"""The correlated-feature toy model: binary features with falling firing rates, embedded in a larger space."""

from __future__ import annotations

from dataclasses import dataclass

import torch


@dataclass
class ToyModel:
    """``features`` true directions (rows, unit norm) and the firing process that mixes them."""

    directions: torch.Tensor      # (features, dim)
    probabilities: torch.Tensor   # (features,)
    correlation: torch.Tensor     # (features, features), for the Gaussian copula
    magnitude_std: float = 0.15

    @property
    def true_l0(self) -> float:
        return float(self.probabilities.sum())

    def sample(self, count: int, generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
        """Return activations (count, dim) and the feature amplitudes (count, features) behind them."""
        normal = torch.distributions.Normal(0.0, 1.0)
        chol = torch.linalg.cholesky(self.correlation)
        latent = torch.randn(count, len(self.probabilities), generator=generator) @ chol.T
        fires = normal.cdf(latent) < self.probabilities
        magnitudes = 1.0 + self.magnitude_std * torch.randn(fires.shape, generator=generator)
        amplitudes = fires * magnitudes.clamp_min(0.0)
        return amplitudes @ self.directions, amplitudes


def make_toy_model(features: int = 50, dim: int = 100, *, p_max: float = 0.395, p_min: float = 0.05,
                   correlation_scale: float = 0.4, seed: int = 0) -> ToyModel:
    """The paper's toy: firing probabilities falling linearly from ``p_max`` to ``p_min``, random correlations."""
    generator = torch.Generator().manual_seed(seed)
    directions, _ = torch.linalg.qr(torch.randn(dim, features, generator=generator))
    factors = torch.randn(features, features // 5, generator=generator)
    covariance = factors @ factors.T
    scale = covariance.diagonal().sqrt()
    correlation = correlation_scale * covariance / torch.outer(scale, scale)
    correlation.fill_diagonal_(1.0)
    return ToyModel(directions=directions.T.contiguous(), probabilities=torch.linspace(p_max, p_min, features),
                    correlation=correlation)
