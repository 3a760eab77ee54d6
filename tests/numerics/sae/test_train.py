import torch

from numerics.sae.metrics import feature_recovery
from numerics.sae.train import train_sae


def test_training_recovers_orthogonal_sparse_features():
    generator = torch.Generator().manual_seed(0)
    directions = torch.linalg.qr(torch.randn(16, 8, generator=generator))[0].T

    def sample(count):
        fires = (torch.rand(count, 8, generator=generator) < 0.25).float()
        return fires @ directions

    sae = train_sae(sample, 16, 8, k=2, steps=600, batch=256)
    assert feature_recovery(sae, directions) > 0.95
