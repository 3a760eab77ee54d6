"""torch.fx recognition of template operators in reference programs."""

import torch
import torch.nn as nn
import torch.nn.functional as F

from sandboxes.targets.npu.templates.recognize import recognise


class Lambda(nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, x):
        return self.fn(x)


class ScaleShift(nn.Module):
    def forward(self, x):
        return x * 1.5 + -0.25


class Rms(nn.Module):
    def __init__(self):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(16))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(dim=-1, keepdim=True) + 1e-6) * self.weight


class TransposedMatmul(nn.Module):
    def forward(self, a, b):
        return torch.matmul(a, b.T)


class Norm(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(16)

    def forward(self, x):
        return F.gelu(self.norm(x), approximate="tanh")


def ops(model, *inputs):
    graph = recognise(model, list(inputs))
    return graph, [(spec.op, spec.attrs) for _, spec in graph.ops]


def test_scalar_affine_ops_fuse_into_one_scale_shift():
    graph, found = ops(ScaleShift(), torch.randn(4, 16))
    assert found == [("scale_shift", {"scale": 1.5, "shift": -0.25})] and graph.output == "v0"


def test_rms_norm_pattern_with_weight():
    _, found = ops(Rms(), torch.randn(4, 16))
    assert found == [("rms_norm", {"eps": 1e-6, "weight": "self.weight"})]


def test_transposed_matmul_and_module_chain():
    _, found = ops(TransposedMatmul(), torch.randn(4, 8), torch.randn(6, 8))
    assert found == [("matmul", {"transpose_b": True})]
    graph, found = ops(Norm(), torch.randn(4, 16))
    assert [op for op, _ in found] == ["layer_norm", "gelu_tanh"]
    assert graph.ops[0][1].attrs["weight"] == "self.norm.weight"


def test_unsupported_and_last_dim_rules():
    graph, _ = ops(Lambda(lambda x: torch.cumsum(x, 1)), torch.randn(4, 16))
    assert "cumsum" in graph.unsupported
    graph, _ = ops(Lambda(lambda x: torch.softmax(x, 0)), torch.randn(4, 16))
    assert graph.unsupported  # softmax over the first dimension has no template
