"""The one template operator of a whole reference: recognition and fusion first, then whole-graph patterns."""

import sys
import types

import torch
import torch.nn as nn

from sandboxes.targets.npu.templates import render_kernel
from sandboxes.targets.npu.templates.select import operator_graph, single_operator


class Swish(nn.Module):
    def forward(self, x):
        return x * torch.sigmoid(x)


class Sort(nn.Module):
    def forward(self, x):
        return torch.sort(x, dim=-1).values


def test_a_recognised_operator_wins_over_patterns():
    spec = single_operator(nn.Sequential(nn.ReLU()), [torch.randn(4, 8)])
    assert (spec.op, spec.family) == ("relu", "elementwise")


def test_a_graph_without_a_fusion_falls_back_to_an_expression():
    spec = single_operator(Swish(), [torch.randn(4, 8)])
    assert (spec.op, spec.family, spec.args) == ("expression", "elementwise", ["x"])
    assert "Mul(" in spec.attrs["code"]


def test_the_eager_baseline_sees_the_whole_graph_operator_and_unknown_ops_say_why():
    graph = operator_graph(Swish(), [torch.randn(4, 8)])
    assert [spec.op for _, spec in graph.ops] == ["sigmoid", "mul"]  # recognised one by one: eager runs both
    reason = single_operator(Sort(), [torch.randn(4, 8)])
    assert isinstance(reason, str) and "sort" in reason
    assert operator_graph(Sort(), [torch.randn(4, 8)]).unsupported


class Attention(nn.Module):
    def forward(self, q, k, v):
        return torch.nn.functional.scaled_dot_product_attention(q, k, v)


class SpelledOut(nn.Module):
    def forward(self, q, k, v):
        return torch.matmul(torch.softmax(torch.matmul(q, k.transpose(-2, -1)) * 0.125, dim=-1), v)


def test_attention_as_one_operator_matches_torch():
    q, k, v = torch.randn(2, 3, 20, 16), torch.randn(2, 3, 24, 16), torch.randn(2, 3, 24, 8)
    spec = single_operator(Attention(), [q, k, v])
    assert (spec.op, spec.family) == ("attention", "attention")
    assert single_operator(SpelledOut(), [q, k, v]).attrs == {"scale": 0.125}
    module = types.ModuleType("attention_kernel")
    sys.modules[module.__name__] = module
    exec(compile(render_kernel(spec, {"BASE_M": 64, "BASE_N": 64, "BASE_K": 32}), "rendered.py", "exec"),
         module.__dict__)
    torch.testing.assert_close(module.run_attention(q, k, v), Attention()(q, k, v), atol=1e-5, rtol=1e-4)
