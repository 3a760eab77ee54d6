"""Normalisations spelled out in torch ops, matched as whole graphs."""

import torch
import torch.nn as nn

from sandboxes.targets.npu.templates.patterns import l1_pattern, rms_pattern, scan_pattern
from sandboxes.targets.npu.templates.recognize import traced


class RmsOver(nn.Module):
    """KernelBench's RMSNorm: over the channel dimension of NCHW input."""

    def __init__(self, dim: int):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        return x / torch.sqrt(torch.mean(x ** 2, dim=self.dim, keepdim=True) + 1e-5)


class L1(nn.Module):
    def forward(self, x):
        return x / torch.mean(torch.abs(x), dim=1, keepdim=True)


def test_rms_over_a_middle_dimension_is_an_axis_operator_and_over_the_last_a_norm():
    x = torch.randn(2, 8, 4, 4)
    axis = rms_pattern(traced(RmsOver(1), [x]))
    assert (axis.op, axis.family, axis.attrs) == ("rms_axis", "axis_reduce", {"reduce": "rms", "dim": 1, "eps": 1e-5})
    last = rms_pattern(traced(RmsOver(-1), [x]))
    assert (last.op, last.family, last.attrs) == ("rms_norm", "norm", {"eps": 1e-5})


def test_l1_normalisation_of_rows():
    spec = l1_pattern(traced(L1(), [torch.randn(4, 32)]))
    assert (spec.op, spec.family, spec.args) == ("l1_normalize", "norm", ["x"])
    assert l1_pattern(traced(L1(), [torch.randn(2, 4, 32)])) is None  # dim 1 is not the last here


def test_other_graphs_do_not_match():
    gm = traced(RmsOver(1), [torch.randn(2, 8, 4)])
    assert l1_pattern(gm) is None
    assert rms_pattern(traced(L1(), [torch.randn(4, 32)])) is None


class Reversed(nn.Module):
    def forward(self, x):
        return torch.cumsum(x.flip(1), dim=1).flip(1)


class Exclusive(nn.Module):
    def forward(self, x):
        inclusive = torch.cumsum(x.narrow(dim=1, start=0, length=x.size(1) - 1), dim=1)
        return torch.cat((torch.zeros_like(x.select(1, 0).unsqueeze(1)), inclusive), dim=1)


class Masked(nn.Module):
    def forward(self, x, mask):
        return torch.cumsum(x * mask, dim=1)


def test_scan_spellings_become_one_scan_operator():
    x = torch.randn(4, 32)
    assert scan_pattern(traced(Reversed(), [x])).attrs == {"reverse": True}
    assert scan_pattern(traced(Exclusive(), [x])).attrs == {"exclusive": True}
    masked = scan_pattern(traced(Masked(), [x, x > 0]))
    assert (masked.op, masked.args) == ("cumsum_masked", ["x", "mask"])
    assert scan_pattern(traced(Masked(), [x, x])) is None  # a float mask is an ordinary product
    assert scan_pattern(traced(Reversed(), [torch.randn(4, 32, 2)])) is None  # not the last dimension
