"""torch.triu / torch.tril on the simulator, alone and after a matmul that skips the zeroed tiles."""

import sys
import types

import pytest
import torch

from sandboxes.targets.npu.launch import capture
from sandboxes.targets.npu.templates import render_kernel
from sandboxes.targets.npu.templates.fusion import fuse
from sandboxes.targets.npu.templates.ops import OpSpec
from sandboxes.targets.npu.templates.recognize import recognise


def load(spec: OpSpec, params: dict):
    module = types.ModuleType("triangle_kernel")
    sys.modules[module.__name__] = module
    exec(compile(render_kernel(spec, params), "rendered.py", "exec"), module.__dict__)
    return module


@pytest.mark.parametrize("op,fn", [("triu", torch.triu), ("tril", torch.tril)])
def test_triangles_of_ragged_rows(op, fn):
    module = load(OpSpec(op, "triangle", ["x"]), {"TILE_LENGTH": 1024, "BLOCK_DIM": 5})
    x = torch.randn(37, 1500)
    assert torch.equal(module.run_triangle(x), fn(x))


@pytest.mark.parametrize("triangle,fn", [("upper", torch.triu), ("lower", torch.tril)])
def test_matmul_then_triangle_skips_the_tiles_it_zeroes(triangle, fn):
    module = load(OpSpec("matmul", "matmul", ["a", "b"]), {"BASE_M": 64, "BASE_N": 64, "BASE_K": 32})
    a, b = torch.randn(200, 50), torch.randn(50, 200)
    with capture() as full:
        module.run_matmul(a, b)
    with capture() as masked:
        got = module.run_matmul(a, b, triangle=triangle)
    torch.testing.assert_close(got, fn(a @ b), atol=1e-4, rtol=1e-4)
    assert masked[0].instructions < full[0].instructions  # fewer cube tiles
    assert [launch.kernel for launch in masked] == ["matmul_kernel", "triangle_kernel"]


def test_a_product_followed_by_triu_fuses_into_one_matmul_operator():
    class Upper(torch.nn.Module):
        def forward(self, a, b):
            return torch.triu(torch.matmul(a, b))

    graph = recognise(Upper(), [torch.randn(8, 8), torch.randn(8, 8)])
    spec = fuse(graph)
    assert (spec.op, spec.family, spec.attrs["triangle"]) == ("matmul_triu", "matmul", "upper")
    assert spec.host_call() == "run_matmul(a, b, transpose_b=False, triangle='upper')"
