"""Element-wise chains fuse into one kernel that beats the eager baseline's round trips."""

import torch
import torch.nn as nn
import torch.nn.functional as F

from sandboxes.targets.npu.eager import run_eager
from sandboxes.targets.npu.launch import capture
from sandboxes.targets.npu.templates import render_kernel
from sandboxes.targets.npu.templates.fusion import fuse_conv, fuse_elementwise, fuse_epilogue, fuse_norm, fuse_reduction
from sandboxes.targets.npu.templates.recognize import recognise
from tests.sandboxes.targets.npu.templates.test_init import load


class SiluMul(nn.Module):
    def forward(self, a, b):
        return b * F.silu(a)


class ScaleAddTanh(nn.Module):
    def forward(self, x, y):
        return torch.tanh(x * 2.0 + y) * 0.5


class ReusesFirstInput(nn.Module):
    def forward(self, a, b):
        return torch.relu(a + b) * a


def test_fused_chain_matches_torch_and_beats_eager():
    a, b = torch.randn(4, 3000), torch.randn(4, 3000)
    for model, args in ((SiluMul(), ["a", "b"]), (ScaleAddTanh(), ["x", "y"])):
        spec = fuse_elementwise(recognise(model, [a, b]))
        assert spec is not None and spec.args == args
        module = load(render_kernel(spec, {"TILE_LENGTH": 1024}))
        with capture() as launches:
            out = module.run_elementwise(a, b)
        torch.testing.assert_close(out, model(a, b), atol=2e-6, rtol=1e-5)
        eager = run_eager(model, [a, b])
        assert len(launches) == 1 and len(eager.profile.launches) > 1
        assert eager.profile.cycles > 1.5 * launches[0].cycles


def test_chains_that_need_an_overwritten_input_do_not_fuse():
    assert fuse_elementwise(recognise(ReusesFirstInput(), [torch.randn(8), torch.randn(8)])) is None


class MeanSquaredError(nn.Module):
    def forward(self, pred, target):
        return torch.mean((pred - target) ** 2)


class SumOfRelu(nn.Module):
    def forward(self, x):
        return torch.relu(x).sum()


def test_elementwise_prologue_fuses_into_the_full_reduction():
    a, b = torch.randn(4, 3000), torch.randn(4, 3000)
    for model, inputs in ((MeanSquaredError(), [a, b]), (SumOfRelu(), [a])):
        spec = fuse_reduction(recognise(model, inputs))
        assert spec is not None and spec.family == "full_reduce" and len(spec.args) == len(inputs)
        module = load(render_kernel(spec, {"TILE_LENGTH": 1024}))
        with capture() as launches:
            out = module.run_full_reduce(*inputs)
        torch.testing.assert_close(out, model(*inputs), atol=1e-3, rtol=1e-5)
        eager = run_eager(model, inputs)
        assert len(launches) == 2 and eager.profile.cycles > 1.3 * sum(launch.cycles for launch in launches)
    assert fuse_reduction(recognise(ReusesFirstInput(), [a, b])) is None


class LinearResidual(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(64, 48)

    def forward(self, x):
        y = self.linear(x)
        return torch.sigmoid(y * 0.5 + y)


class LinearSigmoidMean(nn.Module):
    def __init__(self):
        super().__init__()
        self.linear = nn.Linear(64, 1100)

    def forward(self, x):
        return torch.sigmoid(self.linear(x)).mean(dim=1)


class BiasThenSubtractInput(nn.Module):
    def __init__(self):
        super().__init__()
        self.bias = nn.Parameter(torch.randn(48))

    def forward(self, x):
        return torch.relu(x + self.bias) - x


def test_linear_and_bias_heads_take_element_wise_epilogues():
    x = torch.randn(20, 64)
    model = LinearResidual()
    spec = fuse_epilogue(recognise(model, [x]))
    assert spec.op == "linear+scale_shift+add+sigmoid" and spec.args == ["x", "self.linear.weight", "self.linear.bias"]
    module = load(render_kernel(spec, {"TILE_LENGTH": 1024, "BASE_M": 64, "BASE_N": 64}))
    weight, bias = model.linear.weight, model.linear.bias
    with capture() as launches:
        out = module.run_linear(x, weight, bias)
    torch.testing.assert_close(out, model(x), atol=1e-5, rtol=1e-4)
    eager = run_eager(model, [x])
    assert len(launches) == 2 and len(eager.profile.launches) == 5 and eager.profile.cycles > 1.5 * sum(
        launch.cycles for launch in launches)
    model = LinearSigmoidMean()
    spec = fuse_epilogue(recognise(model, [x]))
    assert spec.attrs["row_reduce"] == "mean" and [s.op for s in spec.attrs["stages"]] == ["sigmoid"]
    module = load(render_kernel(spec, {"TILE_LENGTH": 1024, "BASE_M": 64, "BASE_N": 64, "BLOCK_DIM": 8}))
    torch.testing.assert_close(module.run_linear(x, model.linear.weight, model.linear.bias), model(x), atol=1e-5,
                               rtol=1e-4)
    graph = recognise(BiasThenSubtractInput(), [torch.randn(4, 48)])
    assert graph.ops[0][1].op == "bias_add" and fuse_epilogue(graph) is None  # x is not the head's result


class ResidualNormGelu(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(300)

    def forward(self, x, r):
        return F.gelu(self.norm(x + r))


def test_norm_takes_a_residual_prologue_and_activation_stages():
    x, r = torch.randn(6, 300), torch.randn(6, 300)
    model = ResidualNormGelu()
    spec = fuse_norm(recognise(model, [x, r]))
    assert spec.op == "add+layer_norm+gelu" and spec.args == ["x", "r"]
    module = load(render_kernel(spec, {"TILE_LENGTH": 1024}))
    with capture() as launches:
        out = module.run_norm(x, model.norm.weight, model.norm.bias, r)
    torch.testing.assert_close(out, model(x, r), atol=1e-5, rtol=1e-4)
    assert len(launches) == 1 and len(run_eager(model, [x, r]).profile.launches) == 3


class ConvNormAct(nn.Module):
    def __init__(self, norm, bias=True):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3, padding=1, bias=bias)
        self.norm = norm

    def forward(self, x):
        return F.silu(self.norm(self.conv(x)))


def test_conv_takes_its_norm_and_stages_into_the_channel_epilogue():
    x = torch.randn(2, 3, 10, 12)
    batch = nn.BatchNorm2d(4).eval()
    batch.running_mean.uniform_(-0.5, 0.5)
    batch.running_var.uniform_(0.5, 1.5)
    for model in (ConvNormAct(batch), ConvNormAct(nn.GroupNorm(2, 4)), ConvNormAct(nn.GroupNorm(2, 4), bias=False)):
        spec = fuse_conv(recognise(model, [x]))
        assert spec.family == "conv2d" and spec.op.endswith("_norm+silu")
        module = load(render_kernel(spec, {"TILE_LENGTH": 1024, "BASE_M": 64, "BASE_N": 64}))
        params = [model.conv.weight, model.conv.bias, model.norm.weight, model.norm.bias]
        params += [model.norm.running_mean, model.norm.running_var] if isinstance(model.norm, nn.BatchNorm2d) else []
        with capture() as launches:
            out = module.run_conv2d(x, *params)
        torch.testing.assert_close(out, model(x), atol=1e-4, rtol=1e-4)
        assert len(launches) == 3 and len(run_eager(model, [x]).profile.launches) >= 4
