"""The channel family's per-channel maps beyond the running-statistics batch norm and group norm
(those are in test_init): rows scaled by a vector, training-mode batch norm."""

import sys
import types

import torch
import torch.nn as nn
import torch.nn.functional as F

from sandboxes.targets.npu.templates import render_kernel
from sandboxes.targets.npu.templates.ops import OpSpec
from sandboxes.targets.npu.templates.patterns import diagonal_pattern
from sandboxes.targets.npu.templates.recognize import traced


def load(spec: OpSpec):
    module = types.ModuleType("channel_kernel")
    sys.modules[module.__name__] = module
    exec(compile(render_kernel(spec, {"TILE_LENGTH": 256, "BLOCK_DIM": 5}), "rendered.py", "exec"), module.__dict__)
    return module.run_channel


def test_rows_of_a_matrix_scaled_by_a_vector():
    a, b = torch.randn(70), torch.randn(70, 600)
    torch.testing.assert_close(load(OpSpec("row_scale", "channel", ["b", "a"]))(b, a), torch.diag(a) @ b)


def test_training_mode_batch_norm_uses_the_batch_statistics():
    x, w, b = torch.randn(3, 6, 9, 40) * 2 + 1, torch.rand(6) + 0.5, torch.randn(6)
    run = load(OpSpec("batch_stats", "channel", ["x", "w", "b"], {"eps": 1e-5}))
    want = F.batch_norm(x, None, None, w, b, training=True, eps=1e-5)
    torch.testing.assert_close(run(x, w, b), want, atol=1e-5, rtol=1e-4)


class Widened(nn.Module):
    def forward(self, a, b):
        return a.unsqueeze(1) * b


class Diagonal(nn.Module):
    def forward(self, a, b):
        return torch.diag(a) @ b


def test_both_spellings_of_a_diagonal_product_are_one_operator():
    a, b = torch.randn(5), torch.randn(5, 7)
    for model in (Widened(), Diagonal()):
        spec = diagonal_pattern(traced(model, [a, b]))
        assert (spec.op, spec.family, spec.args) == ("row_scale", "channel", ["b", "a"])
    assert diagonal_pattern(traced(Widened(), [torch.randn(5, 7), b])) is None


def test_training_mode_batch_norm_after_a_bias():
    x, pre = torch.randn(2, 4, 7, 30), torch.randn(4)
    w, b = torch.rand(4) + 0.5, torch.randn(4)
    run = load(OpSpec("batch_stats", "channel", ["x", "w", "b"], {"eps": 1e-5}))
    want = F.batch_norm(x + pre.view(1, 4, 1, 1), None, None, w, b, training=True, eps=1e-5)
    torch.testing.assert_close(run(x, w, b, None, None, pre), want, atol=1e-5, rtol=1e-4)
