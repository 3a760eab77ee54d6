"""Element-wise expressions compiled to the vector code of one tile, and run on the simulator."""

import math
import sys
import types

import pytest
import torch
import torch.nn as nn
import torch.nn.functional as F

from sandboxes.targets.npu.templates import render_kernel
from sandboxes.targets.npu.templates.expression import NotAnExpression, compile_expression
from sandboxes.targets.npu.templates.recognize import traced
from sandboxes.targets.npu.templates.select import expression_operator


class One(nn.Module):
    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, x):
        return self.fn(x)


class Two(One):
    def forward(self, a, b):
        return self.fn(a, b)


def graph(fn, *inputs):
    gm = traced((One, Two)[len(inputs) - 1](fn), list(inputs))
    assert not isinstance(gm, str), gm
    return gm


def run(fn, *inputs):
    """The rendered operator of ``fn`` run on the simulator with ``inputs``."""
    spec = expression_operator(graph(fn, *inputs))
    module = types.ModuleType("expression_kernel")
    sys.modules[module.__name__] = module
    exec(compile(render_kernel(spec, {"TILE_LENGTH": 1024, "BLOCK_DIM": 3}), "rendered.py", "exec"), module.__dict__)
    host = getattr(module, f"run_{spec.family}")
    tensors = [x for x in inputs if isinstance(x, torch.Tensor)]
    scalars = {"s": x for x in inputs if not isinstance(x, torch.Tensor)}
    return host(*tensors, **scalars), spec


def new_gelu(x):
    return 0.5 * x * (1.0 + torch.tanh(math.sqrt(2.0 / math.pi) * (x + 0.044715 * torch.pow(x, 3.0))))


@pytest.mark.parametrize("fn", [lambda x: x * torch.sigmoid(x), lambda x: x / (1 + torch.abs(x)), new_gelu,
                                lambda x: torch.clamp(1 - x * 2, min=0) ** 2, lambda x: (x.exp() - x) / 3])
def test_one_input_expressions_match_torch(fn):
    x = torch.randn(2500) * 2
    got, spec = run(fn, x)
    assert spec.family == "elementwise" and spec.op == "expression"
    torch.testing.assert_close(got, fn(x), atol=1e-5, rtol=1e-5)


def test_a_runtime_scalar_argument_reaches_the_kernel():
    a = torch.randn(40, 70)
    got, spec = run(lambda a, s: a * s, a, 3.14)
    assert spec.attrs["scalar"] == "b" and spec.args == ["a"]
    torch.testing.assert_close(got, a * 3.14)


@pytest.mark.parametrize("fn,reduce", [(F.smooth_l1_loss, "mean"), (lambda p, t: F.mse_loss(p, t, reduction="sum"), "sum"),
                                       (lambda p, t: F.kl_div(torch.log(p), t, reduction="batchmean"), "batchmean")])
def test_losses_become_a_full_reduction_with_the_pointwise_term_as_prologue(fn, reduce):
    p, t = torch.rand(30, 90).softmax(-1), torch.rand(30, 90).softmax(-1)
    got, spec = run(fn, p, t)
    assert spec.family == "full_reduce" and spec.attrs["reduce"] == reduce
    torch.testing.assert_close(got, fn(p, t), atol=1e-6, rtol=1e-4)


def test_what_is_not_an_expression_is_refused():
    x = torch.randn(8, 16)
    with pytest.raises(NotAnExpression, match="shape"):
        compile_expression(graph(lambda x: x.sum(-1) + 1, x))
    with pytest.raises(NotAnExpression, match="one shape"):
        compile_expression(graph(lambda x, y: x * y, x, torch.randn(16)))
    with pytest.raises(NotAnExpression, match="buffers"):  # x and four intermediates alive at once
        compile_expression(graph(lambda x: x.exp() + (x.abs() + (x.sqrt() + (x.tanh() + x.sigmoid()))), x))
    with pytest.raises(NotAnExpression, match="no vector code for sin"):
        compile_expression(graph(torch.sin, x))
