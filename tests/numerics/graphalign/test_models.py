import pytest
import torch

from numerics.graphalign.models import SiameseEncoder


@pytest.mark.parametrize("kind", ["gcn", "gin", "gat"])
def test_encoders_are_permutation_equivariant(kind):
    torch.manual_seed(0)
    adjacency = (torch.rand(12, 12) < 0.3).float().triu(1)
    adjacency = adjacency + adjacency.T
    features = torch.randn(12, 5)
    model = SiameseEncoder(kind, inputs=5, hidden=16, layers=2).eval()
    perm = torch.randperm(12)
    out = model(features, adjacency)
    permuted = model(features[perm], adjacency[perm][:, perm])
    assert torch.allclose(out[perm], permuted, atol=1e-5)
    assert torch.allclose(out.norm(dim=1), torch.ones(12), atol=1e-5)


def test_unknown_model():
    with pytest.raises(ValueError, match="unknown GNN"):
        SiameseEncoder("sage", inputs=3)
