"""The MACKO SpMV kernel task: its encoder matches numerics.sparse, and the C++ reference passes the harness."""

import shutil
import uuid
from pathlib import Path

import numpy as np
import pytest

from agents.cli.bench_spmv import macko_task_variant
from benchmarks.kernels.verifier.harness import EvalConfig, evaluate_file
from benchmarks.kernels.verifier.result import Status
from benchmarks.kernels.tasks import BUILTIN_ROOT, load_task
from numerics.sparse.macko import compress
from sandboxes.targets.cache import BuildCache, default_cache_root
from sandboxes.targets.cpu import CpuTarget

SOLUTION = BUILTIN_ROOT.parent / "solutions" / "reference" / "cpu" / "L1__macko_spmv.py"


def small_task(directory: Path, density: float) -> Path:
    return macko_task_variant(directory, 256, 640, density)


def test_task_encoder_matches_the_numerics_format(tmp_path):
    namespace: dict = {}
    exec(compile(small_task(tmp_path, 0.1).read_text(), "task", "exec"), namespace)
    matrix = compress(namespace["dense_matrix"]().numpy())
    values, gaps, row_ptr = namespace["macko_arrays"]()
    assert matrix.explicit_zeros > 0
    assert np.array_equal(values.numpy(), matrix.values) and np.array_equal(gaps.numpy(), matrix.gaps)
    assert np.array_equal(row_ptr.numpy(), matrix.row_ptr)


@pytest.fixture()
def cpu_target():
    root = default_cache_root() / f"test-macko-{uuid.uuid4().hex[:8]}"
    root.mkdir(mode=0o755)
    yield CpuTarget(BuildCache(root))
    shutil.rmtree(root, ignore_errors=True)


def test_hand_written_cpu_kernel_passes_the_harness(tmp_path, cpu_target):
    from sandboxes.select import get_sandbox

    task = load_task(small_task(tmp_path, 0.1), level="L1")
    config = EvalConfig(trials=3, warmup=1, min_timed_trials=3, timed_trials=5, timing_budget_s=0.1,
                        call_timeout_s=60.0, timeout_s=300.0)
    result = evaluate_file(task, SOLUTION, cpu_target, sandbox=get_sandbox("local"), config=config)
    assert result.status is Status.CORRECT, result.reason
    assert result.runtime_ms > 0 and result.reference_ms > 0
