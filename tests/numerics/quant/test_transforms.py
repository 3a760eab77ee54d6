import torch

from numerics.quant.transforms import CayleyOrthogonal, LUInvertible, hadamard, random_rotation


def test_cayley_stays_orthogonal_for_any_parameters():
    generator = torch.Generator().manual_seed(0)
    transform = CayleyOrthogonal(random_rotation(64, seed=1))
    for scale in (0.0, 0.1, 3.0, 50.0):
        with torch.no_grad():
            transform.raw.copy_(scale * torch.randn(64, 64, generator=generator, dtype=torch.float64))
        q = transform()
        assert (q.T @ q - torch.eye(64, dtype=q.dtype)).abs().max() < 1e-10


def test_lu_transform_stays_invertible_and_its_inverse_is_exact():
    generator = torch.Generator().manual_seed(0)
    transform = LUInvertible(torch.linspace(-2, 3, 48))
    with torch.no_grad():
        transform.lower.copy_(0.2 * torch.randn(48, 48, generator=generator, dtype=torch.float64))
        transform.upper.copy_(0.2 * torch.randn(48, 48, generator=generator, dtype=torch.float64))
    g = transform()
    assert torch.linalg.matrix_rank(g) == 48
    assert (g @ transform.inverse() - torch.eye(48, dtype=g.dtype)).abs().max() < 1e-8


def test_hadamard_and_random_rotations_are_orthogonal():
    for q in (hadamard(128), random_rotation(128), random_rotation(96)):
        assert (q.T @ q - torch.eye(len(q), dtype=q.dtype)).abs().max() < 1e-12
