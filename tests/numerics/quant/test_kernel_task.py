"""The fused low-rank + int4 GEMM kernel task: its reference matches TwinQuant's dequantisation, and the C++
reference solution passes the harness."""

import shutil
import uuid

import torch

from benchmarks.kernels.verifier.harness import EvalConfig, evaluate_file
from benchmarks.kernels.verifier.result import Status
from benchmarks.kernels.tasks import BUILTIN_ROOT, load_task
from numerics.quant.rtn import fake_quantise, quantise_codes
from sandboxes.targets.cache import BuildCache, default_cache_root
from sandboxes.targets.cpu import CpuTarget

TASK = BUILTIN_ROOT / "L2" / "lowrank_int4_gemm.py"
SOLUTION = BUILTIN_ROOT.parent / "solutions" / "reference" / "cpu" / "L2__lowrank_int4_gemm.py"


def small_task(directory):
    path = directory / "lowrank_int4_gemm.py"
    path.write_text(TASK.read_text().replace("K = 2048", "K = 256").replace("N_OUT = 2048", "N_OUT = 192"))
    return path


def test_task_reference_computes_low_rank_plus_dequantised_residual(tmp_path):
    namespace: dict = {}
    exec(compile(small_task(tmp_path).read_text(), "task", "exec"), namespace)
    weight, a, b = torch.randn(192, 256), torch.randn(256, 8).half(), torch.randn(8, 192).half()
    codes, scales, zeros = quantise_codes(weight, 4, 128)
    x = torch.randn(16, 256).half()
    y = namespace["Model"]()(x, a, b, codes, scales, zeros)
    expected = x.float() @ (a.float() @ b.float()) + x.float() @ fake_quantise(weight, 4, 128).T
    assert torch.allclose(y, expected, atol=1e-3, rtol=1e-4)


def test_hand_written_cpu_kernel_passes_the_harness(tmp_path):
    from sandboxes.select import get_sandbox

    root = default_cache_root() / f"test-dual-gemm-{uuid.uuid4().hex[:8]}"
    root.mkdir(mode=0o755)
    try:
        result = evaluate_file(load_task(small_task(tmp_path), level="L2"), SOLUTION, CpuTarget(BuildCache(root)),
                               sandbox=get_sandbox("local"),
                               config=EvalConfig(trials=3, warmup=1, min_timed_trials=3, timed_trials=5,
                                                 timing_budget_s=0.1, call_timeout_s=60.0, timeout_s=300.0))
    finally:
        shutil.rmtree(root, ignore_errors=True)
    assert result.status is Status.CORRECT, result.reason
