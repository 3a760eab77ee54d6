"""The cpu target: C++ (OpenMP/SIMD allowed) built with g++, loaded through load_inline or ctypes,
timed for real by the trusted runner's wall clock."""

from __future__ import annotations

import shutil
from pathlib import Path

from sandboxes.base import Sandbox
from sandboxes.targets.base import (Availability, BuildOutcome, ExtensionSpec, RunnerSettings, RuntimeHooks,
                                    Target, TimingMode)
from sandboxes.targets.cache import BuildCache
from sandboxes.targets.compile import CachedBuilder

SOLUTION_LANGUAGE = """\
A Python file defining class ModelNew(nn.Module) with the task's Model interface. Its forward must
run your own C++ kernel: either `from sandboxes.targets.native import load_cpp` (extern "C"
functions over raw pointers; OpenMP and SIMD allowed; arguments declared as tensor/int/float/double)
or torch.utils.cpp_extension.load_inline (C++ taking torch::Tensor). Build at module level;
forward may only allocate outputs (torch.empty*), query shapes and call your kernel."""


class CpuTarget(Target):
    """g++-built kernels on this machine's CPU."""

    name = "cpu"
    solution_language = SOLUTION_LANGUAGE

    def __init__(self, cache: BuildCache | None = None) -> None:
        self.builder = CachedBuilder("cpu", ["g++"], cache)

    def availability(self) -> Availability:
        """g++ present means everything works: compile, run and time."""
        if shutil.which("g++") is None:
            return Availability(False, False, False, "g++ not found: install build-essential")
        return Availability(True, True, True)

    def runner_settings(self) -> RunnerSettings:
        """Wall-clock timing in the trusted runner, torch eager as the baseline."""
        return RunnerSettings(hooks="sandboxes.targets.cpu", timing=TimingMode.WALL, cache_salt=self.builder.salt)

    def build(self, spec: ExtensionSpec, sandbox: Sandbox) -> BuildOutcome:
        """Build (or reuse) a C++ extension; CUDA sources belong to the gpu target."""
        if spec.cuda_sources:
            return BuildOutcome(ok=False, error="CUDA sources cannot build for --target cpu; use --target gpu")
        return self.builder.build(spec, sandbox)

    def cache_dir(self) -> Path:
        """The build cache root, mounted read-only for the workers."""
        return self.builder.cache.root


HOOKS = RuntimeHooks()
"""Plain CPU execution: inputs stay on the CPU, nothing to synchronise or flush."""

