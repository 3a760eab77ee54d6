"""Fixtures for the harness tests: the local sandbox, a shared build cache, a quick config, small tasks."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.kernels.verifier.harness import EvalConfig
from benchmarks.kernels.tasks import load_task
from sandboxes.targets.cpu import CpuTarget

TINY_RELU = '''"""ReLU on a small tensor."""
import torch
import torch.nn as nn

rows = 64
cols = 1024


class Model(nn.Module):
    def forward(self, x):
        return torch.relu(x)


def get_inputs():
    return [torch.randn(rows, cols)]


def get_init_inputs():
    return []
'''


@pytest.fixture(scope="session")
def sandbox():
    """The real local sandbox backend."""
    from sandboxes.select import get_sandbox

    return get_sandbox("local")


@pytest.fixture(scope="session")
def cpu_target(warm_cache):
    """A cpu target over the build cache this test session shares (with the warm builds, tests/warm_builds.py)."""
    return CpuTarget(warm_cache)


@pytest.fixture(scope="session")
def quick():
    """Five correctness trials and a short timing loop."""
    return EvalConfig(trials=5, warmup=1, min_timed_trials=5, timed_trials=8, timing_budget_s=0.1,
                      call_timeout_s=20.0, timeout_s=240.0)


@pytest.fixture(scope="session")
def tiny_relu(tmp_path_factory):
    """An L1-style ReLU task on a 64x1024 tensor (fast trials)."""
    path = Path(tmp_path_factory.mktemp("tasks")) / "relu.py"
    path.write_text(TINY_RELU)
    return load_task(path, level="L1")
