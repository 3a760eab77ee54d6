"""The npu reference solutions are the rendered templates, cached by their inputs, and pass the static checks."""

import pytest

from benchmarks.kernels.verifier.harness import evaluate
from benchmarks.kernels.npu_references import reference_dir, solution_for, task_operator, write_references
from benchmarks.kernels.verifier.result import Status
from benchmarks.kernels.verifier.runner.launch import EvalConfig
from benchmarks.kernels.verifier.static_checks import check_solution
from benchmarks.kernels.tasks import load_task, load_tasks
from sandboxes.select import get_sandbox
from sandboxes.targets.npu.target import NpuTarget

FAST = EvalConfig(trials=2, warmup=1, min_timed_trials=2, timed_trials=2, timing_budget_s=0.1)


@pytest.fixture(scope="module")
def rendered(tmp_path_factory):
    cache = tmp_path_factory.mktemp("kernel-cache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("AGENT_KERNEL_CACHE", str(cache))
        yield reference_dir()


def test_reference_dir_renders_once_and_is_reused(rendered, monkeypatch):
    files = sorted(p.name for p in rendered.glob("*.py"))
    assert len(files) >= 42 and {"L1__relu.py", "L1__cumsum.py", "L1__conv2d.py"} <= set(files)
    assert "L2__attention.py" not in files
    monkeypatch.setenv("AGENT_KERNEL_CACHE", str(rendered.parents[1]))
    stamp = (rendered / "L1__relu.py").stat().st_mtime_ns
    assert reference_dir() == rendered and (rendered / "L1__relu.py").stat().st_mtime_ns == stamp


def test_export_matches_the_cached_set(rendered, tmp_path):
    written = write_references(tmp_path, "builtin:L1:relu,softmax")
    assert [p.read_text() for p in written] == [(rendered / p.name).read_text() for p in written]


def test_references_pass_the_harness_static_checks(rendered):
    target = NpuTarget()
    for path in sorted(rendered.glob("*.py")):
        assert check_solution(path.read_text(), target) == [], path.name


def test_every_l1_task_has_a_template_and_others_say_why():
    assert not [t.name for t in load_tasks("builtin:L1") if isinstance(task_operator(t.source), str)]
    reason = task_operator(load_tasks("builtin:L2:attention")[0].source)
    assert isinstance(reason, str) and "no NPU template" in reason


SMALL_MSE = '''"""Mean squared error, small."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, pred, target):
        return torch.mean((pred - target) ** 2)


def get_inputs():
    return [torch.randn(16, 4096), torch.randn(16, 4096)]


def get_init_inputs():
    return []
'''
SMALL_CONV = '''"""Conv2d with bias, then eval-mode batch norm parameters, small."""
import torch
import torch.nn as nn

channels = 4


def filters():
    """A fixed filter bank."""
    generator = torch.Generator().manual_seed(1)
    return torch.randn(6, channels, 3, 3, generator=generator)


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(channels, 6, 3, padding=1)
        self.conv.weight.data.copy_(filters())
        self.eval()

    def forward(self, x):
        return self.conv(x)


def get_inputs():
    return [torch.randn(2, channels, 16, 24)]


def get_init_inputs():
    return []
'''


@pytest.mark.parametrize("name,task,faster", [("mse_small", SMALL_MSE, True), ("conv_small", SMALL_CONV, False)])
def test_rendered_references_pass_the_real_harness(tmp_path, name, task, faster):
    path = tmp_path / f"{name}.py"
    path.write_text(task)
    result = evaluate(load_task(path), solution_for(task), NpuTarget(), sandbox=get_sandbox("local"), config=FAST)
    row = result.to_row()
    assert result.status is Status.CORRECT, result.reason
    assert row["simulated"] is True and row["cycles"] > 0
    # the fused mse kernel skips the eager baseline's GM round trips; conv2d is the same kernels as eager
    assert row["speedup"] > 1.3 if faster else row["speedup"] == pytest.approx(1.0)
