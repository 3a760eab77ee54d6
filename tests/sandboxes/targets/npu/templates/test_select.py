"""The one template operator of a whole reference: recognition and fusion first, then whole-graph patterns."""

import torch
import torch.nn as nn

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
