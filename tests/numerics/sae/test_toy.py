import torch

from numerics.sae.toy import make_toy_model


def test_toy_matches_the_paper_setup():
    toy = make_toy_model()
    assert toy.directions.shape == (50, 100)
    assert torch.allclose(toy.directions.norm(dim=1), torch.ones(50), atol=1e-5)
    assert abs(float(toy.probabilities[0]) - 0.395) < 1e-6 and abs(float(toy.probabilities[-1]) - 0.05) < 1e-6
    assert abs(toy.true_l0 - 11.125) < 1e-4


def test_samples_fire_at_the_set_rates_with_correlations():
    toy = make_toy_model()
    x, amplitudes = toy.sample(40_000, torch.Generator().manual_seed(0))
    fires = (amplitudes > 0).float()
    assert torch.allclose(fires.mean(dim=0), toy.probabilities, atol=0.015)
    assert abs(float(fires.sum(dim=1).mean()) - toy.true_l0) < 0.15
    active = amplitudes[amplitudes > 0]
    assert abs(float(active.mean()) - 1.0) < 0.01 and abs(float(active.std()) - 0.15) < 0.01
    corr = torch.corrcoef(fires.T)
    assert corr.fill_diagonal_(0).abs().max() > 0.1  # correlated, not independent
    assert torch.allclose(x, amplitudes @ toy.directions, atol=1e-5)
