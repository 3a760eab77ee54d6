"""Worker-side hooks: simulated timing fields, the eager reference and error classification."""

import math

import pytest
import torch
import torch.nn as nn

from sandboxes.targets.npu.errors import CapacityError, OutOfBoundsError
from sandboxes.targets.npu.hooks import NoKernelLaunched, NpuHooks
from sandboxes.targets.npu.templates import render_kernel
from sandboxes.targets.npu.templates.ops import OpSpec
from tests.sandboxes.targets.npu.templates.test_init import load


class Relu(nn.Module):
    def forward(self, x):
        return torch.relu(x)


class Cumsum(nn.Module):
    def forward(self, x):
        return torch.cumsum(x, dim=1)


def relu_solution():
    module = load(render_kernel(OpSpec("relu", "elementwise", ["x"])))

    class ModelNew(nn.Module):
        def forward(self, x):
            return module.run_elementwise(x)
    return ModelNew()


def test_solution_call_reports_simulated_profile(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # no task.py here: no matmul FLOPs
    hooks = NpuHooks()
    x = torch.randn(64, 1024)
    output, fields = hooks.solution_call(relu_solution(), [x])
    torch.testing.assert_close(output, torch.relu(x))
    assert fields["simulated"] is True and fields["runtime_ms"] > 0
    assert fields["cycles"] == round(fields["runtime_ms"] * 1e3 * hooks.chip.clock_mhz)
    assert 0 < fields["roofline_fraction"] <= 1
    assert fields["bottleneck"] in ("MTE2", "MTE3", "VEC", "GM bandwidth")
    assert "[simulated ascend910b2]" in fields["profile"]


def test_reference_call_runs_eager_once_per_shape():
    hooks = NpuHooks()
    x = torch.randn(16, 512)
    first = hooks.reference_call(Relu(), [x])
    second = hooks.reference_call(Relu(), [x])
    assert first[1]["cycles"] == second[1]["cycles"]
    torch.testing.assert_close(second[0], torch.relu(x))
    missing = hooks.reference_call(Cumsum(), [x])
    assert math.isnan(missing[1]["runtime_ms"]) and "cumsum" in missing[1]["baseline"]


def test_a_solution_without_launches_fails():
    with pytest.raises(NoKernelLaunched, match="launched no NPU kernel"):
        NpuHooks().solution_call(Relu(), [torch.randn(4)])


def test_errors_map_to_statuses():
    hooks = NpuHooks()
    assert hooks.classify_error(CapacityError("x")) == "compile_error"
    assert hooks.classify_error(OutOfBoundsError("x")) == "crashed"
    assert hooks.classify_error(ValueError("x")) is None
