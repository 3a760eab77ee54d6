"""Training a BatchTopK SAE on samples from a source of activations."""

from __future__ import annotations

from typing import Callable

import torch

from numerics.sae.model import BatchTopKSAE


def train_sae(sample: Callable[[int], torch.Tensor], dim: int, width: int, k: float, *, steps: int = 3000,
              batch: int = 1024, lr: float = 3e-3, seed: int = 0) -> BatchTopKSAE:
    """Adam on the reconstruction MSE, re-normalising decoder rows after each step."""
    generator = torch.Generator().manual_seed(seed)
    sae = BatchTopKSAE(dim, width, k, generator=generator)
    optimiser = torch.optim.Adam(sae.parameters(), lr=lr)
    schedule = torch.optim.lr_scheduler.LambdaLR(optimiser, lambda step: min(1.0, 2.0 * (1 - step / steps)))
    sae.train()
    for _ in range(steps):
        x = sample(batch)
        reconstruction, _ = sae(x)
        loss = (reconstruction - x).pow(2).sum(dim=1).mean()
        optimiser.zero_grad()
        loss.backward()
        optimiser.step()
        schedule.step()
        sae.normalise_decoder()
    sae.eval()
    return sae
