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
    assert set(families) == {"elementwise", "row_reduce", "softmax", "norm", "matmul", "scan", "full_reduce",
                             "channel", "window", "transpose", "conv2d", "epilogue", "linear", "axis_reduce",
                             "triangle", "row_loss", "separable", "global_norm", "attention"}
    for template in families.values():
        assert "${" in template["source"] and "@kernel" in template["source"]
        assert all(template["defaults"][k] in v for k, v in template["space"].items())
    assert {"TILE_LENGTH", "BUFFER_NUM", "BLOCK_DIM", "PREFETCH"} == set(families["softmax"]["space"])
    assert {"TILE_LENGTH", "BUFFER_NUM", "BLOCK_DIM", "FUSE"} == set(families["elementwise"]["space"])


TORCH = {"relu": torch.relu, "sigmoid": torch.sigmoid, "tanh": torch.tanh, "silu": F.silu, "gelu": F.gelu,
         "gelu_tanh": lambda x: F.gelu(x, approximate="tanh"), "softplus": F.softplus, "elu": F.elu,
         "hardtanh": F.hardtanh, "hardsigmoid": F.hardsigmoid, "square": lambda x: x * x,
         "leaky_relu": lambda x: F.leaky_relu(x, 0.1), "scale_shift": lambda x: x * 2 - 1, "selu": torch.selu}
ATTRS = {"leaky_relu": {"negative_slope": 0.1}, "elu": {"alpha": 1.0}, "hardtanh": {"min_val": -1.0, "max_val": 1.0},
         "scale_shift": {"scale": 2.0, "shift": -1.0},
         "selu": {"alpha_scale": 1.6732632423543772 * 1.0507009873554805, "scale": 1.0507009873554805}}


@pytest.mark.parametrize("op", sorted(TORCH))
def test_elementwise_ops_match_torch(op):
    module = load(render_kernel(OpSpec(op, "elementwise", ["x"], ATTRS.get(op, {})),
                                {"TILE_LENGTH": 1024, "BLOCK_DIM": 3}))
    x = torch.randn(3000) * 3
    torch.testing.assert_close(module.run_elementwise(x), TORCH[op](x), atol=2e-6, rtol=1e-5)


def test_binary_ops_cover_every_listed_operator():
    assert {op for op, (inputs, _) in ELEMENTWISE.items() if inputs == 2} == {"add", "sub", "mul", "div"}
    module = load(render_kernel(OpSpec("sub", "elementwise", ["a", "b"])))
    a, b = torch.randn(5000), torch.randn(5000)
    torch.testing.assert_close(module.run_elementwise(a, b), a - b)


@pytest.mark.parametrize("op,fn", [("sum_rows", lambda x: x.sum(1)), ("max_rows", lambda x: x.max(1).values),
                                   ("mean_rows", lambda x: x.mean(1)), ("argmax_rows", lambda x: x.argmax(1))])
def test_row_reduce(op, fn):
    module = load(render_kernel(OpSpec(op, "row_reduce", ["x"]), {"TILE_LENGTH": 1024}))
    x = torch.randn(5, 2500)
    torch.testing.assert_close(module.run_row_reduce(x), fn(x), atol=1e-4, rtol=1e-5)


@pytest.mark.parametrize("op,fn", [("softmax", torch.softmax), ("log_softmax", torch.log_softmax)])
def test_softmax_over_chunked_rows(op, fn):
    module = load(render_kernel(OpSpec(op, "softmax", ["x"]), {"TILE_LENGTH": 1024, "BUFFER_NUM": 1}))
    x = torch.randn(4, 3000) * 4
    torch.testing.assert_close(module.run_softmax(x), fn(x, dim=1), atol=1e-6, rtol=1e-4)


def test_cumsum_carries_the_total_across_chunks():
    module = load(render_kernel(OpSpec("cumsum", "scan", ["x"]), {"TILE_LENGTH": 1024}))
    x = torch.randn(3, 2500)
    torch.testing.assert_close(module.run_scan(x), x.cumsum(1), atol=1e-4, rtol=1e-4)


@pytest.mark.parametrize("stages,reduce", [((), "sum"), (("sub", "square"), "mean")])
def test_full_reduce_with_a_fused_prologue(stages, reduce):
    specs = [OpSpec(op, "elementwise", ["a", "b"] if op == "sub" else ["v0"]) for op in stages]
    args = ["a", "b"] if stages else ["a"]
    spec = OpSpec("reduction", "full_reduce", args, {"stages": specs, "reduce": reduce})
    module = load(render_kernel(spec, {"TILE_LENGTH": 1024, "BLOCK_DIM": 5}))
    a, b = torch.randn(7, 1001), torch.randn(7, 1001)
    want = torch.mean((a - b) ** 2) if stages else a.sum()
    torch.testing.assert_close(module.run_full_reduce(*[a, b][:len(args)]), want, atol=1e-3, rtol=1e-5)


def test_batch_and_group_norm_over_channels():
    x, w, b = torch.randn(2, 6, 9, 11), torch.rand(6) + 0.5, torch.randn(6)
    mean, var = torch.randn(6), torch.rand(6) + 0.5
    batch = load(render_kernel(OpSpec("batch_norm", "channel", ["x"], {"eps": 1e-5}), {"TILE_LENGTH": 64}))
    torch.testing.assert_close(batch.run_channel(x, w, b, mean, var),
                               F.batch_norm(x, mean, var, w, b, False, 0.1, 1e-5), atol=1e-5, rtol=1e-4)
    group = load(render_kernel(OpSpec("group_norm", "channel", ["x"], {"eps": 1e-5, "groups": 3}),
                               {"TILE_LENGTH": 64}))
    torch.testing.assert_close(group.run_channel(x, w, b), F.group_norm(x, 3, w, b, 1e-5), atol=1e-5, rtol=1e-4)


WINDOWS = [("avg_pool2d", (3, 1, 1), lambda x, w: F.avg_pool2d(x, 3, 1, 1)),
           ("avg_pool2d", (3, 2, 1), lambda x, w: F.avg_pool2d(x, 3, 2, 1)),
           ("max_pool2d", (2, 2, 0), lambda x, w: F.max_pool2d(x, 2, 2)),
           ("max_pool2d", (3, 2, 1), lambda x, w: F.max_pool2d(x, 3, 2, 1)),
           ("depthwise_conv2d", (3, 1, 1), lambda x, w: F.conv2d(x, w, padding=1, groups=3))]


DILATED = [("max_pool2d", {"kh": 1, "kw": 4, "stride": 1, "pad_h": 0, "pad_w": 2, "dil_h": 1, "dil_w": 3},
            lambda x: F.max_pool1d(x[:, :, 0], 4, 1, 2, dilation=3).unsqueeze(2), (2, 3, 1, 50)),
           ("max_pool2d", {"kh": 3, "kw": 2, "stride": 2, "pad_h": 1, "pad_w": 1, "dil_h": 2, "dil_w": 2},
            lambda x: F.max_pool2d(x, (3, 2), 2, 1, dilation=2), (2, 3, 13, 21))]


@pytest.mark.parametrize("op,attrs,fn,shape", DILATED)
def test_dilated_windows_with_padding_per_axis(op, attrs, fn, shape):
    module = load(render_kernel(OpSpec(op, "window", ["x"], attrs), {"TILE_LENGTH": 64, "BLOCK_DIM": 5}))
    x = torch.randn(*shape)
    torch.testing.assert_close(module.run_window(x), fn(x))


def test_conv1d_runs_as_a_window_one_row_high():
    spec = OpSpec("conv1d", "conv2d", ["x", "w"], {"kh": 1, "kw": 3, "stride": 3, "pad_h": 0, "pad_w": 1,
                                                   "dil_h": 1, "dil_w": 4})
    module = load(render_kernel(spec, {"TILE_LENGTH": 1024}))
    x, w = torch.randn(2, 5, 70), torch.randn(6, 5, 3)
    torch.testing.assert_close(module.run_conv2d(x, w), F.conv1d(x, w, stride=3, padding=1, dilation=4),
                               atol=1e-4, rtol=1e-4)


@pytest.mark.parametrize("op,window,fn", WINDOWS)
def test_window_operators_with_ragged_bands_and_padding(op, window, fn):
    size, stride, pad = window
    spec = OpSpec(op, "window", ["x"], {"kh": size, "kw": size, "stride": stride, "pad": pad})
    module = load(render_kernel(spec, {"TILE_LENGTH": 64, "BLOCK_DIM": 5}))
    x, w = torch.randn(2, 3, 13, 21), torch.randn(3, 1, 3, 3)
    got = module.run_window(x, w) if op.startswith("depthwise") else module.run_window(x)
    torch.testing.assert_close(got, fn(x, w), atol=1e-5, rtol=1e-5)


def test_window_rows_align_to_data_blocks_in_half_precision():
    spec = OpSpec("max_pool2d", "window", ["x"], {"kh": 3, "kw": 3, "stride": 2, "pad": 1})
    x = torch.randn(2, 3, 13, 21).half()
    got = load(render_kernel(spec, {"TILE_LENGTH": 64})).run_window(x)
    assert torch.equal(got, F.max_pool2d(x.float(), 3, 2, 1).half())


@pytest.mark.parametrize("shape", [(37, 45), (2, 24, 40)])
def test_transpose_of_ragged_tiles(shape):
    module = load(render_kernel(OpSpec("transpose", "transpose", ["x"]), {"TILE_ROWS": 16, "TILE_COLS": 32}))
    x = torch.randn(*shape)
    torch.testing.assert_close(module.run_transpose(x), x.transpose(-1, -2).contiguous())


def test_conv2d_as_img2col_cube_matmul_and_bias():
    spec = OpSpec("conv2d", "conv2d", ["x", "w", "b"], {"kh": 3, "kw": 3, "stride": 1, "pad": 1})
    module = load(render_kernel(spec, {"TILE_LENGTH": 1024}))
    x, w, b = torch.randn(2, 5, 12, 10), torch.randn(7, 5, 3, 3), torch.randn(7)
    with capture() as launches:
        got = module.run_conv2d(x, w, b)
    torch.testing.assert_close(got, F.conv2d(x, w, b, padding=1), atol=1e-4, rtol=1e-4)
    assert [launch.kernel for launch in launches] == ["window_kernel", "matmul_kernel", "channel_kernel"]


def test_linear_with_a_fused_epilogue_reading_the_biased_result_again():
    stages = [OpSpec("scale_shift", "elementwise", ["v0"], {"scale": 0.5, "shift": 0.0}),
              OpSpec("add", "elementwise", ["v1", "v0"]), OpSpec("relu", "elementwise", ["v2"])]
    spec = OpSpec("linear", "linear", ["x", "w", "b"], {"stages": stages})
    module = load(render_kernel(spec, {"TILE_LENGTH": 1024, "BASE_M": 64, "BASE_N": 64}))
    x, w, b = torch.randn(2, 30, 96), torch.randn(1100, 96), torch.randn(1100)
    with capture() as launches:
        got = module.run_linear(x, w, b)
    y = F.linear(x, w, b)
    torch.testing.assert_close(got, torch.relu(y * 0.5 + y), atol=1e-4, rtol=1e-4)
    assert [launch.kernel for launch in launches] == ["matmul_kernel", "epilogue_kernel"]


def test_matmul_casts_b_to_the_type_of_a():
    module = load(render_kernel(OpSpec("matmul", "matmul", ["a", "b"])))
    a, v = torch.randn(100, 70).half(), torch.randn(70)
    torch.testing.assert_close(module.run_matmul(a, v), a.float() @ v.half().float(), atol=1e-3, rtol=1e-3)


def test_layer_and_rms_norm():
    x, w, b = torch.randn(6, 1000), torch.rand(1000) + 0.5, torch.randn(1000)
    layer = load(render_kernel(OpSpec("layer_norm", "norm", ["x"], {"eps": 1e-5}), {"TILE_LENGTH": 1024}))
    torch.testing.assert_close(layer.run_norm(x, w, b), F.layer_norm(x, (1000,), w, b), atol=1e-5, rtol=1e-4)
    rms = load(render_kernel(OpSpec("rms_norm", "norm", ["x"], {"eps": 1e-6}), {"TILE_LENGTH": 1024}))
    want = x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + 1e-6)
    torch.testing.assert_close(rms.run_norm(x), want, atol=1e-5, rtol=1e-4)
    l2 = load(render_kernel(OpSpec("l2_normalize", "norm", ["x"]), {"TILE_LENGTH": 1024}))
    torch.testing.assert_close(l2.run_norm(x), x / x.norm(dim=1, keepdim=True), atol=1e-6, rtol=1e-5)
    l1 = load(render_kernel(OpSpec("l1_normalize", "norm", ["x"]), {"TILE_LENGTH": 1024}))
    torch.testing.assert_close(l1.run_norm(x), x / x.abs().mean(1, keepdim=True), atol=1e-6, rtol=1e-5)


def test_layer_norm_over_trailing_dimensions_and_instance_norm():
    x, w, b = torch.randn(3, 4, 10, 30), torch.rand(4, 10, 30) + 0.5, torch.randn(4, 10, 30)
    spec = OpSpec("layer_norm", "norm", ["x"], {"eps": 1e-5, "norm_dims": 3})
    layer = load(render_kernel(spec, {"TILE_LENGTH": 1024}))
    torch.testing.assert_close(layer.run_norm(x, w, b), F.layer_norm(x, (4, 10, 30), w, b), atol=1e-5, rtol=1e-4)
    instance = load(render_kernel(OpSpec("layer_norm", "norm", ["x"], {"eps": 1e-5, "norm_dims": 2}),
                                  {"TILE_LENGTH": 1024}))
    torch.testing.assert_close(instance.run_norm(x), F.instance_norm(x), atol=1e-5, rtol=1e-4)


@pytest.mark.parametrize("reduce,fn", [("sum", lambda x: x.sum(1, keepdim=True)), ("mean", lambda x: x.mean(1)),
                                       ("max", lambda x: x.amax(1)), ("min", lambda x: x.amin(1)),
                                       ("argmax", lambda x: x.argmax(1)), ("argmin", lambda x: x.argmin(1)),
                                       ("rms", lambda x: x / torch.sqrt(x.pow(2).mean(1, keepdim=True) + 1e-5))])
def test_axis_reduce_over_a_middle_dimension_with_ragged_tiles(reduce, fn):
    spec = OpSpec(f"{reduce}_axis", "axis_reduce", ["x"], {"reduce": reduce, "dim": 1, "keepdim": reduce == "sum",
                                                           "eps": 1e-5})
    module = load(render_kernel(spec, {"TILE_LENGTH": 1024, "BLOCK_DIM": 5}))
    x = torch.randn(3, 37, 1100)
    got = module.run_axis_reduce(x)
    assert got.dtype == fn(x).dtype and got.shape == fn(x).shape
    torch.testing.assert_close(got, fn(x), atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize("shape_a,shape_b,transpose", [((70, 90), (90, 40), False), ((70, 90), (40, 90), True),
                                                        ((3, 20, 30), (3, 30, 17), False), ((33, 50), (50,), False)])
def test_matmul_variants(shape_a, shape_b, transpose):
    module = load(render_kernel(OpSpec("matmul", "matmul", ["a", "b"]), {"BASE_M": 64, "BASE_N": 64, "BASE_K": 32}))
    a, b = torch.randn(shape_a), torch.randn(shape_b)
    want = a @ (b.transpose(-1, -2) if transpose else b)
    torch.testing.assert_close(module.run_matmul(a, b, transpose_b=transpose), want, atol=1e-4, rtol=1e-4)


@pytest.mark.parametrize("shape_a,shape_b,transpose_b", [((90, 70), (90, 40), False), ((90, 70), (40, 90), True)])
def test_matmul_with_a_given_transposed(shape_a, shape_b, transpose_b):
    module = load(render_kernel(OpSpec("matmul", "matmul", ["a", "b"]), {"BASE_M": 64, "BASE_N": 64, "BASE_K": 32}))
    a, b = torch.randn(shape_a), torch.randn(shape_b)
    want = a.T @ (b.T if transpose_b else b)
    got = module.run_matmul(a, b, transpose_b=transpose_b, transpose_a=True)
    torch.testing.assert_close(got, want, atol=1e-4, rtol=1e-4)


def test_matmul_of_a_4d_tensor_and_a_matrix():
    module = load(render_kernel(OpSpec("matmul", "matmul", ["a", "b"]), {"BASE_M": 64, "BASE_N": 64, "BASE_K": 32}))
    a, b = torch.randn(2, 3, 5, 24), torch.randn(24, 19)
    torch.testing.assert_close(module.run_matmul(a, b), torch.einsum("bijl,lk->bijk", a, b), atol=1e-4, rtol=1e-4)


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


def test_render_solution_of_a_kernelbench_task_drops_the_reference_class_and_stateless_layers():
    task = '''
import torch
import torch.nn as nn

class Model(nn.Module):
    def __init__(self, kernel_size: int):
        super(Model, self).__init__()
        self.pool = nn.MaxPool2d(kernel_size=kernel_size, stride=2)

    def forward(self, x):
        return self.pool(x)
'''
    spec = OpSpec("max_pool2d", "window", ["x"], {"kh": 2, "kw": 2, "stride": 2, "pad": 0})
    source = render_solution(task, spec)
    assert "super().__init__()" in source and "Model, self" not in source and "MaxPool2d" not in source
    x = torch.randn(2, 3, 8, 12)
    torch.testing.assert_close(load(source).ModelNew(2)(x), F.max_pool2d(x, 2, 2))


def test_render_solution_inlines_task_helpers_and_keeps_eval_mode():
    task = '''
import torch
import torch.nn as nn

size = 6


def table():
    """A fixed table."""
    generator = torch.Generator().manual_seed(0)
    return torch.randn(size, generator=generator)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.register_buffer("offset", table())
        self.eval()

    def forward(self, x):
        return torch.relu(x)
'''
    source = render_solution(task, OpSpec("relu", "elementwise", ["x"]))
    assert "table()" not in source and "self.train(False)" in source and ".eval()" not in source
    model = load(source).ModelNew()
    assert not model.training
    torch.testing.assert_close(model.offset, torch.randn(6, generator=torch.Generator().manual_seed(0)))
