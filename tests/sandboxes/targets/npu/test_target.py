"""The npu Target through the real harness: static checks, the trusted runner, simulated timing."""

import pytest

from benchmarks.kernels.verifier.harness import evaluate
from benchmarks.kernels.verifier.result import Status
from benchmarks.kernels.verifier.runner.launch import EvalConfig
from benchmarks.kernels.tasks import load_task
from sandboxes.select import get_sandbox
from sandboxes.targets.base import TimingMode
from benchmarks.kernels.npu_references import solution_for
from sandboxes.targets.npu.target import NpuTarget

TASK = '''"""ReLU, small."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return torch.relu(x)


def get_inputs():
    return [torch.randn(8, 4096)]


def get_init_inputs():
    return []
'''
FAST = EvalConfig(trials=2, warmup=1, min_timed_trials=2, timed_trials=2, timing_budget_s=0.1)


def test_chip_from_the_environment(monkeypatch):
    monkeypatch.setenv("AGENT_NPU_CHIP", "ascend910a")
    assert NpuTarget().chip.name == "ascend910a"


def test_settings_mark_everything_simulated():
    target = NpuTarget("ascend910a")
    settings = target.runner_settings()
    assert target.simulated and settings.timing is TimingMode.SIMULATED
    assert "ascend910a" in settings.env["AGENT_NPU_CHIP_JSON"]
    assert target.availability().can_time
    assert target.row_extras({"cycles": 5})["simulated"] is True


def test_reference_solution_is_correct_with_simulated_rows(tmp_path):
    path = tmp_path / "relu_small.py"
    path.write_text(TASK)
    result = evaluate(load_task(path), solution_for(TASK), NpuTarget(), sandbox=get_sandbox("local"), config=FAST)
    row = result.to_row()
    assert result.status is Status.CORRECT, result.reason
    assert row["simulated"] is True and row["cycles"] > 0 and 0 < row["roofline_fraction"] <= 1
    assert row["speedup"] == pytest.approx(1.0)  # same template and parameters as the eager baseline
    assert row["bottleneck"]


def test_hardware_rule_violation_is_a_compile_error(tmp_path):
    path = tmp_path / "relu_small.py"
    path.write_text(TASK)
    source = solution_for(TASK, {"TILE_LENGTH": 8192})
    result = evaluate(load_task(path), source, NpuTarget(), sandbox=get_sandbox("local"), config=FAST)
    assert result.status is Status.COMPILE_ERROR and "UB overflow" in result.reason
