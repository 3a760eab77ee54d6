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
    assert ops(Lambda(lambda x: x / 4.0), torch.randn(4, 16))[1] == [("scale_shift", {"scale": 0.25, "shift": 0.0})]
    assert ops(Lambda(lambda x: x / x.abs().add(1)), torch.randn(4, 16))[0].unsupported  # abs has no op here
    assert ops(Lambda(lambda x: 2.0 / x), torch.randn(4, 16))[0].unsupported


def test_rms_norm_pattern_with_weight():
    _, found = ops(Rms(), torch.randn(4, 16))
    assert found == [("rms_norm", {"eps": 1e-6, "weight": "self.weight"})]
    _, found = ops(Lambda(lambda x: F.silu(x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6))), torch.randn(4, 16))
    assert [op for op, _ in found] == ["rms_norm", "silu"]
    graph, _ = ops(Lambda(lambda x: x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6) + 1.0), torch.randn(4, 16))
    assert graph.unsupported  # an add after the normalisation is not part of the rms pattern


def test_transposed_matmul_and_module_chain():
    _, found = ops(TransposedMatmul(), torch.randn(4, 8), torch.randn(6, 8))
    assert found == [("matmul", {"transpose_b": True})]
    graph, found = ops(Norm(), torch.randn(4, 16))
    assert [op for op, _ in found] == ["layer_norm", "gelu_tanh"]
    assert graph.ops[0][1].attrs["weight"] == "self.norm.weight"


def test_unsupported_and_last_dim_rules():
    graph, _ = ops(Lambda(lambda x: torch.cumsum(x, 0)), torch.randn(4, 16))
    assert "cumsum" in graph.unsupported  # only the last dimension has a scan template
    graph, _ = ops(Lambda(lambda x: torch.softmax(x, 0)), torch.randn(4, 16))
    assert graph.unsupported  # softmax over the first dimension has no template


class Cast(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("weight", torch.randn(8, 6).half())

    def forward(self, x):
        return torch.mv(self.weight, x.to(self.weight.dtype)).float()


def test_row_ops_full_reductions_transpose_and_folded_casts():
    x = torch.randn(4, 16)
    assert ops(Lambda(lambda x: torch.argmax(x, dim=1)), x)[1] == [("argmax_rows", {})]
    assert ops(Lambda(lambda x: torch.cumsum(x, dim=-1)), x)[1] == [("cumsum", {})]
    assert ops(Lambda(lambda x: x / torch.norm(x, p=2, dim=1, keepdim=True)), x)[1] == [("l2_normalize", {})]
    assert ops(Lambda(lambda x: x.t().contiguous()), x)[1] == [("transpose", {})]
    assert ops(Lambda(lambda x: torch.mean(x)), x)[1] == [("mean_all", {"reduce": "mean"})]
    graph, found = ops(Cast(), torch.randn(6))
    assert found == [("matmul", {"transpose_b": False})] and graph.ops[0][1].args == ["self.weight", "x"]


def test_nchw_layers_and_pools():
    x = torch.randn(2, 4, 8, 8)
    conv, found = ops(Lambda(nn.Conv2d(4, 6, 3, padding=1)), x)
    assert found == [("conv2d", {"kh": 3, "kw": 3, "stride": 1, "pad_h": 1, "pad_w": 1, "dil_h": 1, "dil_w": 1})]
    assert conv.ops[0][1].args == ["x", "self.fn.weight", "self.fn.bias"]
    assert ops(Lambda(nn.Conv2d(4, 4, 3, groups=4, bias=False)), x)[1][0][0] == "depthwise_conv2d"
    assert ops(Lambda(nn.Linear(8, 3)), torch.randn(5, 8))[1] == [("linear", {})]
    assert ops(Lambda(nn.BatchNorm2d(4).eval()), x)[1] == [("batch_norm", {"eps": 1e-5})]
    assert ops(Lambda(nn.GroupNorm(2, 4)), x)[1] == [("group_norm", {"eps": 1e-5, "groups": 2})]
    assert ops(Lambda(lambda x: F.max_pool2d(x, 2)), x)[1] == [("max_pool2d", {"kh": 2, "kw": 2, "stride": 2,
                                                                               "pad_h": 0, "pad_w": 0, "dil_h": 1,
                                                                               "dil_w": 1})]
    assert ops(Lambda(lambda x: F.avg_pool2d(x, 3, 1, 1)), x)[1][0][0] == "avg_pool2d"
    dilated = ops(Lambda(nn.Conv2d(4, 6, (3, 5), padding=(2, 4), dilation=(2, 3))), x)[1]
    assert dilated == [("conv2d", {"kh": 3, "kw": 5, "stride": 1, "pad_h": 2, "pad_w": 4, "dil_h": 2, "dil_w": 3})]
    line = torch.randn(2, 4, 40)
    assert ops(Lambda(nn.Conv1d(4, 6, 3, stride=2, dilation=2)), line)[1][0][0] == "conv1d"
    assert ops(Lambda(nn.MaxPool1d(4, 1, 2, dilation=3)), line)[1] == [("max_pool1d", {
        "kh": 1, "kw": 4, "stride": 1, "pad_h": 0, "pad_w": 2, "dil_h": 1, "dil_w": 3})]
    assert ops(Lambda(nn.BatchNorm2d(4)), x)[1] == [("batch_stats", {"eps": 1e-5})]  # training mode
    for unsupported in (Lambda(nn.Conv2d(4, 6, 3, stride=(1, 2))),
                        Lambda(nn.Conv2d(4, 6, 3, padding=(0, 9))),
                        Lambda(lambda x: F.avg_pool2d(x, 3, 1, 1, count_include_pad=False))):
        assert ops(unsupported, x)[0].unsupported  # two strides, wide padding, excluded padding
