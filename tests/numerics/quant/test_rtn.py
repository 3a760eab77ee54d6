import pytest
import torch

from numerics.quant.rtn import fake_quantise, group_count_bits, quantise_codes


def test_four_bit_groups_have_at_most_sixteen_levels_and_bounded_error():
    weight = torch.randn(8, 256)
    approx = fake_quantise(weight, 4, 64)
    for group in approx.reshape(8, 4, 64).unbind(1):
        assert all(len(torch.unique(row)) <= 16 for row in group)
    step = (weight.reshape(8, 4, 64).amax(-1) - weight.reshape(8, 4, 64).amin(-1)) / 15
    assert ((approx - weight).abs().reshape(8, 4, 64) <= step[..., None] * 0.5 + 1e-6).all()


def test_codes_reconstruct_the_fake_quantised_weight():
    weight = torch.randn(4, 128)
    codes, scales, zeros = quantise_codes(weight, 4, 64)
    assert codes.max() <= 15
    rebuilt = ((codes.float().reshape(4, 2, 64) - zeros[..., None]) * scales[..., None]).reshape(4, 128)
    assert torch.allclose(rebuilt, fake_quantise(weight, 4, 64), atol=1e-6)


def test_straight_through_keeps_values_and_passes_gradients():
    weight = torch.randn(4, 64, requires_grad=True)
    approx = fake_quantise(weight, 4, 64, straight_through=True)
    assert torch.equal(approx.detach(), fake_quantise(weight.detach(), 4, 64))
    ((approx - weight) ** 2).sum().backward()  # the rounding error shrinks with the group ranges
    assert weight.grad.abs().sum() > 0
    assert group_count_bits((4, 64), 4, 128) == pytest.approx(4.5)
