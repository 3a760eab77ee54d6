"""The cpu target's host half."""

from sandboxes.targets.base import ExtensionSpec, TimingMode
from sandboxes.targets.cpu import CpuTarget


def test_cpu_target_compiles_runs_and_times_here(fresh_cache):
    target = CpuTarget(fresh_cache)
    assert target.availability().can_time
    settings = target.runner_settings()
    assert settings.timing is TimingMode.WALL and settings.baseline == "torch-eager"
    assert settings.cache_salt == target.builder.salt and target.cache_dir() == fresh_cache.root


def test_cuda_sources_are_refused_without_compiling(fresh_cache, sandbox):
    spec = ExtensionSpec(kind="load_inline", name="k", cpp_sources=("",), cuda_sources=("__global__ void k(){}",))
    outcome = CpuTarget(fresh_cache).build(spec, sandbox)
    assert not outcome.ok and "--target gpu" in outcome.error
