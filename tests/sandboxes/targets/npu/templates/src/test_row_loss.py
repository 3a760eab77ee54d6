"""Losses made of one value per row, on the simulator, and how they are recognised."""

import sys
import types

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

from sandboxes.targets.npu.templates import render_kernel
from sandboxes.targets.npu.templates.ops import OpSpec
from sandboxes.targets.npu.templates.select import single_operator


def run_row_loss(attrs: dict, *inputs):
    module = types.ModuleType("row_loss_kernel")
    sys.modules[module.__name__] = module
    spec = OpSpec(attrs["loss"], "row_loss", ["x"] * len(inputs), attrs)
    exec(compile(render_kernel(spec, {"TILE_LENGTH": 1024, "BLOCK_DIM": 5}), "rendered.py", "exec"), module.__dict__)
    return module.run_row_loss(*inputs)


def test_cross_entropy_of_long_rows():
    x, t = torch.randn(23, 2500) * 3, torch.randint(0, 2500, (23,))
    torch.testing.assert_close(run_row_loss({"loss": "cross_entropy"}, x, t), F.cross_entropy(x, t), atol=1e-5,
                               rtol=1e-5)


def test_triplet_margin_and_hinge():
    a, p, n = torch.randn(3, 19, 1300).unbind(0)
    torch.testing.assert_close(run_row_loss({"loss": "triplet", "margin": 0.5, "eps": 1e-6}, a, p, n),
                               F.triplet_margin_loss(a, p, n, margin=0.5), atol=1e-5, rtol=1e-5)
    x, t = torch.randn(19, 1300), torch.randint(0, 2, (1300,)).float() * 2 - 1
    torch.testing.assert_close(run_row_loss({"loss": "hinge"}, x, t), torch.mean(torch.clamp(1 - x * t, min=0)),
                               atol=1e-6, rtol=1e-5)


class Hinge(nn.Module):
    def forward(self, predictions, targets):
        return torch.mean(torch.clamp(1 - predictions * targets, min=0))


class CrossEntropy(nn.Module):
    def forward(self, logits, targets):
        return F.cross_entropy(logits, targets)


class Triplet(nn.Module):
    def __init__(self):
        super().__init__()
        self.loss = nn.TripletMarginLoss(margin=2.0)

    def forward(self, a, p, n):
        return self.loss(a, p, n)


@pytest.mark.parametrize("model,inputs,op", [
    (Hinge(), [torch.randn(6, 8), torch.randn(8)], "hinge"),
    (CrossEntropy(), [torch.randn(6, 8), torch.randint(0, 8, (6,))], "cross_entropy"),
    (Triplet(), [torch.randn(6, 8)] * 3, "triplet_margin")])
def test_the_three_losses_are_recognised(model, inputs, op):
    spec = single_operator(model, inputs)
    assert (spec.op, spec.family) == (op, "row_loss")
    assert isinstance(single_operator(Hinge(), [torch.randn(6, 8), torch.randn(6)]), str)  # not per column
