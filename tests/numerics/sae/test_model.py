import torch

from numerics.sae.model import BatchTopKSAE


def test_batch_topk_keeps_k_per_sample_on_average():
    sae = BatchTopKSAE(20, 30, k=4, generator=torch.Generator().manual_seed(0))
    x = torch.randn(64, 20, generator=torch.Generator().manual_seed(1))
    codes = sae.encode(x)
    assert int((codes > 0).sum()) == 4 * 64
    assert (codes >= 0).all()


def test_inference_uses_the_learned_threshold_and_decoder_stays_unit_norm():
    sae = BatchTopKSAE(8, 10, k=2)
    with torch.no_grad():
        sae.decoder.mul_(3.0)
    sae.normalise_decoder()
    assert torch.allclose(sae.decoder.norm(dim=1), torch.ones(10))
    sae.eval()
    sae.threshold.fill_(1e9)
    with torch.no_grad():
        assert float(sae.encode(torch.randn(4, 8)).abs().sum()) == 0.0
