"""The trusted runner's kept task modules: one load per (task source, shape mode), newest kept, fresh seeds."""

import sys

import torch

from benchmarks.kernels.verifier.runner.launch import EvalConfig, runner_config
from benchmarks.kernels.verifier.runner.task_modules import TASK_MODULES, TaskModules
from benchmarks.kernels.verifier.runner.trusted import Runner
from sandboxes.targets.cpu import CpuTarget

TASK = '''
import torch
import torch.nn as nn

n = 4
GPU_SHAPES = {"n": 16}
LOADS = []
LOADS.append(1)


class Model(nn.Module):
    def forward(self, x):
        return x * 2


def get_inputs():
    return [torch.randn(n)]


def get_init_inputs():
    return []
'''


def test_a_task_is_loaded_once_per_source_and_shape_mode():
    modules = TaskModules()
    first = modules.get(TASK, None)
    assert modules.get(TASK, "default") is first and first.LOADS == [1] and first.n == 4
    gpu = modules.get(TASK, "gpu")
    assert gpu is not first and gpu.n == 16 and first.n == 4
    other = modules.get(TASK + "\n# changed\n", None)
    assert other is not first and modules.loads == 3
    assert sys.modules["task"] is other


def test_the_least_recently_used_module_goes_first():
    modules = TaskModules(keep=2)
    a, b = modules.get(TASK, None), modules.get(TASK, "gpu")
    assert modules.get(TASK, None) is a  # a is now the newest
    modules.get(TASK + "#c", None)  # b goes
    assert modules.get(TASK, None) is a and modules.loads == 3
    assert modules.get(TASK, "gpu") is not b and modules.loads == 4


def test_runners_of_one_task_share_its_module_but_draw_their_own_seeds(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "task.py").write_text(TASK + f"\n# {tmp_path.name}\n")  # a source no other test loaded
    config = runner_config(CpuTarget().runner_settings(), None, EvalConfig())
    loads = TASK_MODULES.loads
    first, second = Runner(config, {}), Runner(config, {})
    assert first.task is second.task and TASK_MODULES.loads == loads + 1
    assert first.init_seed != second.init_seed
    assert not torch.equal(first.batch().values[0], second.batch().values[0])
