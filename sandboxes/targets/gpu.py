"""The gpu target: CUDA C++ through load_inline, and Triton.

With a GPU: CUDA extensions are built with torch's load_inline (nvcc), inputs live on the device,
and times come from CUDA events with the L2 cache flushed between trials. Without one: CUDA
sources get a real ``nvcc -c`` compile check against torch's headers (cached by source hash, about
48 s on 2 cores) and are reported ``not_run``; Triton kernels run in the Triton interpreter
(``TRITON_INTERPRET=1``) for correctness; nothing is timed ("not timed: no GPU").
"""

from __future__ import annotations

import importlib.util
import shutil
import time
from typing import Any, Callable

from sandboxes.base import Sandbox
from sandboxes.targets.base import (Availability, BuildOutcome, ExtensionSpec, RunnerSettings, RuntimeHooks,
                                    TimingMode)
from sandboxes.targets.cache import BuildCache
from sandboxes.targets.compile import CachedBuilder, compile_limits, outcome_of, torch_flags, trusted_include_dirs
from sandboxes.targets.native_check import PROBE_FILES, judge, probe_script
from sandboxes.targets.triton_guard import guard_triton_launches
from sandboxes.targets.cpu import CpuTarget

NOT_TIMED = "not timed: no GPU"
L2_FLUSH_BYTES = 256 * 1024 * 1024
"""Bytes written between timed trials: several times the largest L2 (H200: 50 MiB)."""
TORCH_INCLUDE_PREAMBLE = "#include <torch/types.h>\n#include <cuda.h>\n#include <cuda_runtime.h>\n"
SOLUTION_LANGUAGE = """\
A Python file defining class ModelNew(nn.Module) with the task's Model interface. Its forward must
run your own GPU kernel: CUDA C++ through torch.utils.cpp_extension.load_inline (cuda_sources plus
a cpp_sources declaration and functions=[...]) or a Triton kernel (@triton.jit, launched as
kernel[grid](...)). Allocate outputs with torch.empty* on the input's device; no torch compute ops."""


def gpu_present() -> bool:
    """True when torch sees a CUDA device."""
    import torch

    return bool(torch.cuda.is_available())


class NvccBuilder(CachedBuilder):
    """Builds CUDA extensions on a GPU machine, or only checks that nvcc compiles them here."""

    def compile(self, spec: ExtensionSpec, digest: str, sandbox: Sandbox) -> tuple[BuildOutcome, dict[str, bytes]]:
        """A real load_inline build with a GPU; otherwise ``nvcc -c`` of the CUDA part (not loadable). A build with
        no CUDA source is host code, which is no GPU kernel (here it ran on the CPU tensors and passed as one)."""
        if not spec.cuda_sources:
            return BuildOutcome(ok=False, rejected=True, error=f"native check failed:\n[native_escape] {spec.name}: a "
                                "build without cuda_sources is host code, not a GPU kernel: write the kernel in "
                                "CUDA (cuda_sources) or Triton"), {}
        if gpu_present():
            return super().compile(spec, digest, sandbox)
        return nvcc_check(spec, sandbox)


def nvcc_check(spec: ExtensionSpec, sandbox: Sandbox) -> tuple[BuildOutcome, dict[str, bytes]]:
    """Compile the CUDA sources to an object file against torch's headers, as load_inline would, and run
    the native check on the host and device sources nvcc kept (``--keep``) and on the object."""
    flags = ["-O3", "-std=c++17", "-Xcompiler", "-fPIC", "--expt-relaxed-constexpr",
             "-DTORCH_EXTENSION_NAME=" + spec.name, *torch_flags(spec), *spec.extra_cuda_cflags]
    compile_keeping = ["nvcc", "-c", "kernel.cu", "-o", "kernel.o", "--keep", "--keep-dir", "kept", *flags]
    build = [["mkdir", "-p", "kept"], compile_keeping]
    script = probe_script(build, ["kept/*.ii"], "kernel.o", trusted_include_dirs())
    source = TORCH_INCLUDE_PREAMBLE + "\n".join(spec.cuda_sources)
    started = time.perf_counter()
    result = sandbox.run(["sh", "-c", script], files={"kernel.cu": source.encode()}, limits=compile_limits(900.0),
                         collect=list(PROBE_FILES))
    outcome = outcome_of(result, time.perf_counter() - started, "nvcc")
    verdict = judge(result.files, "cuda") if outcome.ok else None
    if verdict is not None:
        return verdict, {}
    if outcome.ok:
        outcome.loadable = False
        outcome.note = f"compiled with nvcc -c; {NOT_TIMED} (CUDA cannot run on this machine, so it was not run)"
    return outcome, {}


class GpuTarget(CpuTarget):
    """CUDA and Triton kernels; real on a GPU, compile-checked and interpreted without one."""

    name = "gpu"
    solution_language = SOLUTION_LANGUAGE
    kernel_languages = ("native", "triton")

    def __init__(self, cache: BuildCache | None = None) -> None:
        self.builder = NvccBuilder("gpu", ["g++", "nvcc"], cache)

    def availability(self) -> Availability:
        """What this machine can do: nvcc compiles, the Triton interpreter runs, a GPU times."""
        has_nvcc = shutil.which("nvcc") is not None
        has_triton = importlib.util.find_spec("triton") is not None
        if gpu_present():
            return Availability(True, True, True)
        if not (has_nvcc or has_triton):
            return Availability(False, False, False, "neither nvcc nor triton is installed, and there is no GPU")
        runs = "Triton kernels run in the interpreter" if has_triton else "nothing can run"
        return Availability(True, has_triton, False, f"{NOT_TIMED}; CUDA is compile-checked with nvcc; {runs}")

    def runner_settings(self) -> RunnerSettings:
        """Device-event timing on a GPU; otherwise the Triton interpreter and no timing."""
        if gpu_present():
            return RunnerSettings(hooks="sandboxes.targets.gpu", timing=TimingMode.DEVICE,
                                  cache_salt=self.builder.salt, shapes="gpu")
        return RunnerSettings(hooks="sandboxes.targets.gpu", timing=TimingMode.NONE, cache_salt=self.builder.salt,
                              env={"TRITON_INTERPRET": "1"}, not_timed_reason=NOT_TIMED)

    def build(self, spec: ExtensionSpec, sandbox: Sandbox) -> BuildOutcome:
        """Build CUDA (or plain C++) extensions; on a machine without a GPU CUDA is only compiled."""
        return self.builder.build(spec, sandbox)


class GpuHooks(RuntimeHooks):
    """Worker side: CUDA device, synchronisation, L2 flush and event timing (CPU + interpreter without a GPU)."""

    def __init__(self) -> None:
        import torch

        self._torch = torch
        self._cuda = torch.cuda.is_available()
        self.device = "cuda" if self._cuda else "cpu"
        self._synchronize = torch.cuda.synchronize if self._cuda else None
        self._event = torch.cuda.Event if self._cuda else None
        self._scratch: Any = None
        guard_triton_launches()

    def synchronize(self) -> None:
        """Wait for the device (captured before any solution code was imported)."""
        if self._synchronize is not None:
            self._synchronize()

    def flush_cache(self) -> None:
        """Overwrite a buffer larger than L2 so that each timed trial starts with a cold cache."""
        if not self._cuda:
            return
        if self._scratch is None:
            self._scratch = self._torch.empty(L2_FLUSH_BYTES, dtype=self._torch.uint8, device="cuda")
        self._scratch.zero_()

    def device_timer(self) -> Callable[[Callable[[], Any]], tuple[Any, float]] | None:
        """CUDA events around one call (synchronised), or None without a GPU."""
        if not self._cuda:
            return None

        def timed(call: Callable[[], Any]) -> tuple[Any, float]:
            """Run ``call`` between two recorded events; its result and the elapsed device ms."""
            start, end = self._event(enable_timing=True), self._event(enable_timing=True)
            start.record()
            result = call()
            end.record()
            end.synchronize()
            return result, float(start.elapsed_time(end))

        return timed


HOOKS = GpuHooks()
"""The worker-side hooks."""
