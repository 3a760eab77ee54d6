import math

import torch

from numerics.sae.metrics import decoder_similarity, feature_recovery, nth_decoder_projection
from numerics.sae.model import BatchTopKSAE


def sae_with_decoder(rows):
    sae = BatchTopKSAE(rows.shape[1], rows.shape[0], k=1)
    with torch.no_grad():
        sae.decoder.copy_(rows)
    return sae


def test_nth_projection_on_an_orthonormal_dictionary():
    sae = sae_with_decoder(torch.eye(10))
    x = torch.arange(10.0, 0.0, -1.0).unsqueeze(0)  # projections 10, 9, ..., 1
    assert nth_decoder_projection(sae, x, n=2) == 9.0
    assert nth_decoder_projection(sae, x) == 8.0  # default n = 30% of the width = 3


def test_similarity_and_recovery():
    half = 1 / math.sqrt(2)
    sae = sae_with_decoder(torch.tensor([[1.0, 0.0], [half, half]]))
    assert abs(decoder_similarity(sae) - half) < 1e-6
    truth = torch.eye(2)
    assert abs(feature_recovery(sae, truth) - (1.0 + half) / 2) < 1e-6
