"""Template families: listing, rendering and running on the simulator for small shapes."""

import types

import pytest
import torch
import torch.nn.functional as F

from sandboxes.errors import UserError
from sandboxes.targets.npu.errors import CapacityError
from sandboxes.targets.npu.launch import capture
from sandboxes.targets.npu.templates import get_template, list_templates, render_kernel, render_solution
from sandboxes.targets.npu.templates.ops import ELEMENTWISE, OpSpec


def load(source: str) -> types.ModuleType:
    module = types.ModuleType("rendered")
    import sys
    sys.modules["rendered"] = module
    exec(compile(source, "rendered.py", "exec"), module.__dict__)
    return module


def test_list_templates_exposes_families_sources_and_spaces():
    families = {t["family"]: t for t in list_templates()}
    assert set(families) == {"elementwise", "row_reduce", "softmax", "norm", "matmul"}
    for template in families.values():
        assert "${" in template["source"] and "@kernel" in template["source"]
        assert all(template["defaults"][k] in v for k, v in template["space"].items())
    assert {"TILE_LENGTH", "BUFFER_NUM", "BLOCK_DIM"} == set(families["softmax"]["space"])


TORCH = {"relu": torch.relu, "sigmoid": torch.sigmoid, "tanh": torch.tanh, "silu": F.silu, "gelu": F.gelu,
         "gelu_tanh": lambda x: F.gelu(x, approximate="tanh"), "softplus": F.softplus, "elu": F.elu,
         "hardtanh": F.hardtanh, "hardsigmoid": F.hardsigmoid, "square": lambda x: x * x,
         "leaky_relu": lambda x: F.leaky_relu(x, 0.1), "scale_shift": lambda x: x * 2 - 1}
ATTRS = {"leaky_relu": {"negative_slope": 0.1}, "elu": {"alpha": 1.0}, "hardtanh": {"min_val": -1.0, "max_val": 1.0},
         "scale_shift": {"scale": 2.0, "shift": -1.0}}


@pytest.mark.parametrize("op", sorted(TORCH))
def test_elementwise_ops_match_torch(op):
    module = load(render_kernel(OpSpec(op, "elementwise", ["x"], ATTRS.get(op, {})),
                                {"TILE_LENGTH": 1024, "BLOCK_DIM": 3}))
    x = torch.randn(3000) * 3
    torch.testing.assert_close(module.run_elementwise(x), TORCH[op](x), atol=2e-6, rtol=1e-5)


def test_binary_ops_cover_every_listed_operator():
    assert {op for op, (inputs, _) in ELEMENTWISE.items() if inputs == 2} == {"add", "sub", "mul"}
    module = load(render_kernel(OpSpec("sub", "elementwise", ["a", "b"])))
    a, b = torch.randn(5000), torch.randn(5000)
    torch.testing.assert_close(module.run_elementwise(a, b), a - b)


@pytest.mark.parametrize("op,fn", [("sum_rows", lambda x: x.sum(1)), ("max_rows", lambda x: x.max(1).values),
                                   ("mean_rows", lambda x: x.mean(1))])
def test_row_reduce(op, fn):
    module = load(render_kernel(OpSpec(op, "row_reduce", ["x"]), {"TILE_LENGTH": 1024}))
    x = torch.randn(5, 2500)
    torch.testing.assert_close(module.run_row_reduce(x), fn(x), atol=1e-4, rtol=1e-5)


@pytest.mark.parametrize("op,fn", [("softmax", torch.softmax), ("log_softmax", torch.log_softmax)])
def test_softmax_over_chunked_rows(op, fn):
    module = load(render_kernel(OpSpec(op, "softmax", ["x"]), {"TILE_LENGTH": 1024, "BUFFER_NUM": 1}))
    x = torch.randn(4, 3000) * 4
    torch.testing.assert_close(module.run_softmax(x), fn(x, dim=1), atol=1e-6, rtol=1e-4)


def test_layer_and_rms_norm():
    x, w, b = torch.randn(6, 1000), torch.rand(1000) + 0.5, torch.randn(1000)
    layer = load(render_kernel(OpSpec("layer_norm", "norm", ["x"], {"eps": 1e-5}), {"TILE_LENGTH": 1024}))
    torch.testing.assert_close(layer.run_norm(x, w, b), F.layer_norm(x, (1000,), w, b), atol=1e-5, rtol=1e-4)
    rms = load(render_kernel(OpSpec("rms_norm", "norm", ["x"], {"eps": 1e-6}), {"TILE_LENGTH": 1024}))
    want = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)
    torch.testing.assert_close(rms.run_norm(x), want, atol=1e-5, rtol=1e-4)


@pytest.mark.parametrize("shape_a,shape_b,transpose", [((70, 90), (90, 40), False), ((70, 90), (40, 90), True),
                                                        ((3, 20, 30), (3, 30, 17), False), ((33, 50), (50,), False)])
def test_matmul_variants(shape_a, shape_b, transpose):
    module = load(render_kernel(OpSpec("matmul", "matmul", ["a", "b"]), {"BASE_M": 64, "BASE_N": 64, "BASE_K": 32}))
    a, b = torch.randn(shape_a), torch.randn(shape_b)
    want = a @ (b.transpose(-1, -2) if transpose else b)
    torch.testing.assert_close(module.run_matmul(a, b, transpose_b=transpose), want, atol=1e-4, rtol=1e-4)


def test_parameters_change_the_simulated_time_and_can_overflow():
    spec = OpSpec("relu", "elementwise", ["x"])
    x = torch.randn(1 << 16)
    cycles = {}
    for dim in (1, 8):
        module = load(render_kernel(spec, {"BLOCK_DIM": dim}))
        with capture() as launches:
            module.run_elementwise(x)
        cycles[dim] = launches[0].cycles
    assert cycles[8] < cycles[1]
    with pytest.raises(CapacityError, match="UB overflow"):
        load(render_kernel(spec, {"TILE_LENGTH": 8192, "BUFFER_NUM": 2})).run_elementwise(x)
    with pytest.raises(UserError, match="unknown parameters"):
        render_kernel(spec, {"BASE_M": 64})


def test_render_solution_builds_model_new_from_the_task():
    task = '''
import torch
import torch.nn as nn

hidden = 64


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = nn.LayerNorm(hidden)

    def forward(self, x):
        return self.norm(x)
'''
    spec = OpSpec("layer_norm", "norm", ["x"], {"eps": 1e-5, "weight": "self.norm.weight", "bias": "self.norm.bias"})
    module = load(render_solution(task, spec))
    x = torch.randn(4, 64)
    model = module.ModelNew()
    torch.testing.assert_close(model(x), F.layer_norm(x, (64,)), atol=1e-5, rtol=1e-4)
    assert get_template("norm").family == "norm"
