"""Fixtures of the runtime-defence tests: shared persistent runners, a brief config, small tasks, targets."""

from __future__ import annotations

import shutil
import uuid
from pathlib import Path

import pytest

from benchmarks.kernels.tasks import load_task
from benchmarks.kernels.verifier.harness import EvalConfig
from benchmarks.kernels.verifier.runner.persistent import VerifierPool
from sandboxes.targets.cache import BuildCache, default_cache_root
from tests.benchmarks.kernels.conftest import TINY_RELU

TINY_TRANSPOSE = '''"""Transpose of a small matrix (a new tensor)."""
import torch
import torch.nn as nn

rows = 48
cols = 80


class Model(nn.Module):
    def forward(self, x):
        return x.t().contiguous()


def get_inputs():
    return [torch.randn(rows, cols)]


def get_init_inputs():
    return []
'''

TINY_SUM_ROWS = '''"""Row sums of a small, wide matrix."""
import torch
import torch.nn as nn

rows = 8
cols = 65536


class Model(nn.Module):
    def forward(self, x):
        return torch.sum(x, dim=1)


def get_inputs():
    return [torch.randn(rows, cols)]


def get_init_inputs():
    return []
'''


@pytest.fixture(scope="session")
def pool():
    """Persistent runners shared by every runtime-defence test (one server per target and settings)."""
    with VerifierPool() as shared:
        yield shared


@pytest.fixture(scope="session")
def brief():
    """Two correctness trials, one warm-up and four timed calls: each refusal costs well under a second."""
    return EvalConfig(trials=2, warmup=1, min_timed_trials=4, timed_trials=4, timing_budget_s=0.0,
                      call_timeout_s=30.0, timeout_s=120.0, static_checks=False)


def _task(tmp_path_factory, name, source):
    path = Path(tmp_path_factory.mktemp("tasks")) / f"{name}.py"
    path.write_text(source)
    return load_task(path, level="L1")


@pytest.fixture(scope="session")
def tiny_transpose(tmp_path_factory):
    """An L1-style transpose whose answer must be a new tensor (a view of the input is refused)."""
    return _task(tmp_path_factory, "transpose_2d", TINY_TRANSPOSE)


@pytest.fixture(scope="session")
def large_relu(tmp_path_factory):
    """ReLU on a 4096x1024 tensor (16 MB): enough work in the hand-over of its output for the CPU count to see."""
    return _task(tmp_path_factory, "relu", TINY_RELU.replace("rows = 64", "rows = 4096"))


@pytest.fixture(scope="session")
def tiny_sum_rows(tmp_path_factory):
    """Row sums over 65536 columns: summation order changes the float32 result."""
    return _task(tmp_path_factory, "sum_rows", TINY_SUM_ROWS)


def _cache_root():
    root = default_cache_root() / f"test-session-{uuid.uuid4().hex[:8]}"
    root.mkdir(mode=0o755)
    return root


@pytest.fixture(scope="session")
def npu_target():
    """The simulated NPU target."""
    from sandboxes.targets.npu.target import NpuTarget

    return NpuTarget()


@pytest.fixture(scope="session")
def gpu_target():
    """The gpu target over its own build cache: here Triton kernels run in the interpreter, untimed."""
    from sandboxes.targets.gpu import GpuTarget

    root = _cache_root()
    yield GpuTarget(BuildCache(root))
    shutil.rmtree(root, ignore_errors=True)
