"""The gpu target: honest without a GPU (nvcc check, Triton interpreter, "not timed: no GPU"), real with one."""

from pathlib import Path

import pytest

from benchmarks.kernels.verifier.harness import EvalConfig, evaluate
from benchmarks.kernels.verifier.result import Status
from benchmarks.kernels.suite import SOLUTIONS_ROOT
from benchmarks.kernels.tasks import load_task, load_tasks
from sandboxes.targets.base import ExtensionSpec, TimingMode
from sandboxes.targets.gpu import NOT_TIMED, GpuTarget, gpu_present
from tests.warm_builds import solution_builds, spec_builds

GPU_SOLUTIONS = SOLUTIONS_ROOT / "reference" / "gpu"
no_gpu = pytest.mark.skipif(gpu_present(), reason="checks the behaviour without a GPU")
needs_gpu = pytest.mark.skipif(not gpu_present(), reason="needs a CUDA GPU")
QUICK = EvalConfig(trials=5, warmup=1, min_timed_trials=5, timed_trials=10, timing_budget_s=0.2)
SMALL_RELU = '''
import torch
import torch.nn as nn

class Model(nn.Module):
    def forward(self, x):
        return torch.relu(x)

def get_inputs():
    return [torch.randn(16, 3000)]

def get_init_inputs():
    return []
'''


@pytest.fixture
def small_relu(tmp_path):
    (tmp_path / "relu.py").write_text(SMALL_RELU)
    return load_task(tmp_path / "relu.py", level="L1")


@no_gpu
def test_without_gpu_nothing_is_timed_and_triton_is_interpreted(fresh_cache):
    target = GpuTarget(fresh_cache)
    availability = target.availability()
    assert availability.can_compile and not availability.can_time and NOT_TIMED in availability.reason
    settings = target.runner_settings()
    assert settings.timing is TimingMode.NONE and settings.env == {"TRITON_INTERPRET": "1"}
    assert settings.not_timed_reason == NOT_TIMED and settings.shapes == "cpu"


@no_gpu
def test_triton_kernel_is_checked_in_the_interpreter(small_relu, fresh_cache, sandbox):
    result = evaluate(small_relu, (GPU_SOLUTIONS / "L1__relu.py").read_text(), GpuTarget(fresh_cache),
                      sandbox=sandbox, config=QUICK)
    assert result.status is Status.CORRECT, result.reason
    assert result.reason == NOT_TIMED and result.speedup is None and result.runtime_ms is None


def cuda_spec(kernel: str, cpp: str = "torch::Tensor f(torch::Tensor x);") -> ExtensionSpec:
    """A load_inline spec with one CUDA source (and f exported when ``cpp`` declares it)."""
    return ExtensionSpec(kind="load_inline", name="k", cpp_sources=(cpp,), cuda_sources=(kernel,),
                         functions=("f",) if cpp else ())


GOOD = cuda_spec("__global__ void k(float* x) { x[threadIdx.x] *= 2.0f; }")
UNDEFINED = cuda_spec("__global__ void k(float* x) { x[threadIdx.x] = undefined_thing; }", cpp="")
HOST_ONLY_ASM = cuda_spec('#ifndef __CUDA_ARCH__\nstatic void host_side() { asm volatile("nop"); }\n#endif\n'
                          "__global__ void k(float* x) { x[threadIdx.x] *= 2.0f; }")
LEAKY_RELU = GPU_SOLUTIONS / "L1__leaky_relu.py"


@pytest.mark.parametrize("spec", [
    ExtensionSpec(kind="load_inline", name="host", cpp_sources=("torch::Tensor f(torch::Tensor x) { return x; }",),
                  functions=("f",)),
    ExtensionSpec(kind="cpp", name="host", cpp_sources=('extern "C" void f(float* x) {}',))], ids=["inline", "cpp"])
def test_host_code_without_a_cuda_source_is_no_gpu_kernel(spec, fresh_cache, sandbox):
    outcome = GpuTarget(fresh_cache).build(spec, sandbox)
    assert outcome.rejected and "a build without cuda_sources is host code, not a GPU kernel" in outcome.error


@no_gpu
@pytest.mark.nvcc
@pytest.mark.slow
@pytest.mark.warm_build(spec_builds(GpuTarget, GOOD, UNDEFINED))
def test_cuda_source_gets_a_real_nvcc_compile_check(warm_cache, sandbox):
    target = GpuTarget(warm_cache)
    outcome = target.build(GOOD, sandbox)
    assert outcome.ok and not outcome.loadable and NOT_TIMED in outcome.note
    outcome = target.build(UNDEFINED, sandbox)
    assert not outcome.ok and "undefined_thing" in outcome.error
    assert target.build(UNDEFINED, sandbox).cached


@no_gpu
@pytest.mark.nvcc
@pytest.mark.slow
@pytest.mark.warm_build(spec_builds(GpuTarget, HOST_ONLY_ASM))
def test_the_check_reads_the_host_side_of_a_cuda_source_too(warm_cache, sandbox):
    """nvcc -E shows only the device side: host code behind #ifndef __CUDA_ARCH__ must be checked as well."""
    outcome = GpuTarget(warm_cache).build(HOST_ONLY_ASM, sandbox)
    assert not outcome.ok and outcome.rejected and "[native_asm]" in outcome.error


@no_gpu
@pytest.mark.nvcc
@pytest.mark.slow
@pytest.mark.warm_build(solution_builds(GpuTarget, LEAKY_RELU))
def test_cuda_solution_is_not_run_without_gpu(small_relu, warm_cache, sandbox):
    result = evaluate(small_relu, LEAKY_RELU.read_text(), GpuTarget(warm_cache), sandbox=sandbox, config=QUICK)
    assert result.status is Status.NOT_RUN and result.compiled and not result.correct
    assert "nvcc" in result.reason and NOT_TIMED in result.reason


@pytest.mark.gpu
@needs_gpu
@pytest.mark.parametrize("solution", sorted(p.name for p in GPU_SOLUTIONS.glob("*.py")))
def test_reference_solutions_on_a_real_gpu(solution, fresh_cache, sandbox):
    level, name = Path(solution).stem.split("__")
    task = load_tasks(f"builtin:{level}:{name}")[0]
    target = GpuTarget(fresh_cache)
    assert target.availability().can_time and target.runner_settings().timing is TimingMode.DEVICE
    result = evaluate(task, (GPU_SOLUTIONS / solution).read_text(), target, sandbox=sandbox, config=QUICK)
    assert result.status is Status.CORRECT, result.reason
    assert result.runtime_ms > 0 and result.reference_ms > 0 and result.speedup is not None
    assert "device_time_exceeds_wall" not in result.flags
