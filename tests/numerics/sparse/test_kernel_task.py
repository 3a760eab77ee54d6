"""The MACKO SpMV kernel task: its encoder matches numerics.sparse, and the C++ reference passes the harness."""

import shutil
import uuid
from pathlib import Path

import numpy as np
import pytest

from benchmarks.kernels.harness import EvalConfig, evaluate_file
from benchmarks.kernels.result import Status
from benchmarks.kernels.tasks import BUILTIN_ROOT, load_task
from numerics.sparse.macko import compress
from sandboxes.targets.cache import BuildCache, default_cache_root
from sandboxes.targets.cpu import CpuTarget

TASK = BUILTIN_ROOT / "L1" / "macko_spmv.py"
SOLUTION = BUILTIN_ROOT.parent / "solutions" / "reference" / "cpu" / "L1__macko_spmv.py"


def small_task(directory: Path, density: float) -> Path:
    source = TASK.read_text().replace("M = 4096", "M = 256").replace("K = 4096", "K = 640")
    path = directory / "macko_spmv.py"
    path.write_text(source.replace("DENSITY = 0.5", f"DENSITY = {density}"))
    return path


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
