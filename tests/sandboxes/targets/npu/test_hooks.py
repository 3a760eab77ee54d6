"""Worker-side hooks: simulated timing fields, the eager reference and error classification."""

import math
import subprocess
import sys
from pathlib import Path

import pytest
import torch
import torch.nn as nn

from sandboxes.targets.npu.errors import CapacityError, OutOfBoundsError
from sandboxes.targets.npu.hooks import LaunchFailed, NoKernelLaunched, NpuHooks
from sandboxes.targets.npu.templates import render_kernel
from sandboxes.targets.npu.templates.ops import OpSpec
from tests.sandboxes.targets.npu.templates.test_init import load


class Relu(nn.Module):
    def forward(self, x):
        return torch.relu(x)


class Sort(nn.Module):
    """An operator no NPU template covers (so there is no eager baseline)."""

    def forward(self, x):
        return torch.sort(x, dim=1).values


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
    missing = hooks.reference_call(Sort(), [x])
    assert math.isnan(missing[1]["runtime_ms"]) and "sort" in missing[1]["baseline"]


def test_a_solution_without_launches_fails():
    with pytest.raises(NoKernelLaunched, match="launched no NPU kernel"):
        NpuHooks().solution_call(Relu(), [torch.randn(4)])


def test_a_launch_whose_error_the_solution_swallowed_fails_the_call():
    honest = relu_solution()

    class Swallowing(nn.Module):
        def forward(self, x):
            honest(x)  # counted, and correct
            try:
                honest(x.double())  # raises: the NPU has no float64
            finally:
                return honest(x)

    with pytest.raises(LaunchFailed, match="went on without it"):
        NpuHooks().solution_call(Swallowing(), [torch.randn(64, 1024)])


def test_errors_map_to_statuses():
    hooks = NpuHooks()
    assert hooks.classify_error(CapacityError("x")) == "compile_error"
    assert hooks.classify_error(OutOfBoundsError("x")) == "crashed"
    assert hooks.classify_error(ValueError("x")) is None


def test_one_hooks_object_keeps_tasks_apart(tmp_path, monkeypatch):
    """A long-lived runner reuses the hooks: tasks with the same class name and shapes must not share caches."""
    hooks, x = NpuHooks(), torch.randn(16, 512)
    fields, flops = {}, {}
    for name, expression in (("relu", "torch.relu(x)"), ("matmul", "x @ x.T")):
        folder = tmp_path / name
        folder.mkdir()
        (folder / "task.py").write_text(
            "import torch\n"
            f"class Model(torch.nn.Module):\n    def forward(self, x):\n        return {expression}\n"
            "def get_init_inputs():\n    return []\n")
        monkeypatch.chdir(folder)
        namespace = {}
        exec((folder / "task.py").read_text(), namespace)
        fields[name] = hooks.reference_call(namespace["Model"](), [x])[1]
        flops[name] = hooks.task_costs([x])[0]
    assert fields["relu"]["cycles"] != fields["matmul"]["cycles"]
    assert flops == {"relu": 0.0, "matmul": 2 * 16 * 16 * 512}


def test_the_hooks_bring_the_kernel_language_so_the_fork_server_holds_it_compiled():
    """The runner imports the hooks before its fork server starts; a worker then finds lang already imported."""
    probe = "import sys, sandboxes.targets.npu.hooks; print('sandboxes.targets.npu.lang' in sys.modules)"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=300,
                          cwd=Path(__file__).resolve().parents[4])
    assert done.stdout.strip() == "True", done.stderr


def test_the_roofline_counts_the_tasks_parameters_not_the_solutions(tmp_path, monkeypatch):
    """Dead weight in a solution (an unused 128 MiB parameter: roofline fraction 4.2 on relu) moves nothing."""
    (tmp_path / "task.py").write_text("import torch\nclass Model(torch.nn.Module):\n    def __init__(self):\n"
                                      "        super().__init__()\n        self.scale = torch.nn.Linear(8, 8)\n"
                                      "    def forward(self, x):\n        return self.scale(x)\n"
                                      "def get_init_inputs():\n    return []\n")
    monkeypatch.chdir(tmp_path)
    x = torch.randn(4, 8)

    class Ballast(torch.nn.Module):
        def __init__(self):
            super().__init__()
            self.ballast = torch.nn.Parameter(torch.zeros(1 << 20), requires_grad=False)

    hooks = NpuHooks()
    plain = hooks.roofline(torch.nn.Module(), [x], x)
    assert hooks.roofline(Ballast(), [x], x) == plain
    assert hooks.task_costs([x])[1] == (8 * 8 + 8) * 4  # the reference's Linear
