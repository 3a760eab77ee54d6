"""The window family's tiling: bands shrink to fit in UB, and a single row too long for two buffers
gives up double buffering instead of overflowing."""

import sys
import types

import torch
import torch.nn.functional as F

from sandboxes.targets.npu.templates import render_kernel
from sandboxes.targets.npu.templates.ops import OpSpec


def load(spec: OpSpec, params: dict):
    module = types.ModuleType("window_kernel_module")
    sys.modules[module.__name__] = module
    exec(compile(render_kernel(spec, params), "rendered.py", "exec"), module.__dict__)
    return module


def test_a_long_row_runs_single_buffered():
    spec = OpSpec("max_pool1d", "window", ["x"], {"kh": 1, "kw": 3, "stride": 1, "pad_h": 0, "pad_w": 1,
                                                  "dil_h": 1, "dil_w": 1})
    module = load(spec, {"TILE_LENGTH": 2048, "BUFFER_NUM": 2, "BLOCK_DIM": 2})
    x = torch.randn(1, 2, 10000)  # 24 B of UB per element double buffered, 16 single
    *_, tiling = module.window_tiling(x.unsqueeze(2))
    assert (tiling.rows, tiling.buffers) == (1, 1)
    torch.testing.assert_close(module.run_window(x), F.max_pool1d(x, 3, 1, 1))


def test_bands_shrink_before_double_buffering_is_given_up():
    spec = OpSpec("avg_pool2d", "window", ["x"], {"kh": 11, "kw": 11, "stride": 11, "pad": 0})
    module = load(spec, {"TILE_LENGTH": 2048, "BUFFER_NUM": 2})
    *_, tiling = module.window_tiling(torch.randn(1, 1, 400, 400))
    assert tiling.buffers == 2 and 1 <= tiling.rows < 2048 // 40


def test_depthwise_reads_each_planes_weights_once_not_once_per_band(monkeypatch):
    from sandboxes.targets.npu.tensors import LocalTensor
    from sandboxes.targets.npu.templates.select import single_operator

    conv = torch.nn.Sequential(torch.nn.Conv2d(3, 3, 3, padding=1, groups=3, bias=False))
    x = torch.randn(2, 3, 12, 8)
    spec = single_operator(conv, [x])
    assert (spec.op, spec.family) == ("depthwise_conv2d", "window")
    module = load(spec, {"TILE_LENGTH": 32, "BUFFER_NUM": 2, "BLOCK_DIM": 2})  # 3 bands of 4 rows per plane
    reads = []
    get_value = LocalTensor.GetValue
    monkeypatch.setattr(LocalTensor, "GetValue", lambda self, index: reads.append(index) or get_value(self, index))
    with torch.no_grad():
        torch.testing.assert_close(module.run_window(x, conv[0].weight), conv(x), atol=1e-5, rtol=1e-4)
    assert len(reads) == 6 * 9  # each core's planes change channel at every plane: 9 reads per plane


def test_the_window_tasks_kernels_pass_the_verifiers_static_checks():
    from benchmarks.kernels.tasks import load_tasks
    from benchmarks.kernels.verifier.static_checks import check_solution, format_violations
    from sandboxes.targets.npu.target import NpuTarget
    from sandboxes.targets.npu.templates import render_solution
    from sandboxes.targets.npu.templates.select import single_operator

    for task in load_tasks("builtin:L1:depthwise_conv2d,avg_pool2d"):
        module = types.ModuleType("task")
        exec(compile(task.source, "task.py", "exec"), module.__dict__)
        with torch.device("meta"):
            spec = single_operator(module.Model(*module.get_init_inputs()), module.get_inputs())
        assert spec.family == "window", spec
        violations = check_solution(render_solution(task.source, spec), NpuTarget())
        assert not violations, format_violations(violations)
