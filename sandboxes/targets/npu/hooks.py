"""Worker-side hooks of the npu target: run the solution on the simulated chip and report its
simulated time; the reference side runs the framework-eager baseline of template kernels.

Simulated timing does not depend on the data, only on shapes, so the eager baseline is simulated
once per input shape and its later calls return the PyTorch reference's output with that time.
"""

from __future__ import annotations

import hashlib
import math
import os
import types
from pathlib import Path
from typing import Any, Sequence

import torch

import sandboxes.targets.npu.lang  # noqa: F401  (imported before the fork server: no solution worker compiles it again)
from sandboxes.targets.base import RuntimeHooks
from sandboxes.targets.npu.chip import ChipConfig
from sandboxes.targets.npu.eager import run_eager
from sandboxes.targets.npu.flops import count_flops
from sandboxes.targets.npu.errors import NpuKernelError
from sandboxes.targets.npu.launch import capture
from sandboxes.targets.npu.profile import Profile
from sandboxes.targets.npu.roofline import roofline_cycles

CHIP_ENV = "AGENT_NPU_CHIP_JSON"
"""The chip config as JSON: workers import a snapshot of our .py files only, so no TOML travels."""


class NoKernelLaunched(RuntimeError):
    """The solution returned without launching any NPU kernel."""


class LaunchFailed(RuntimeError):
    """A launch raised during the call, and the solution's code carried on past the error."""


class NpuHooks(RuntimeHooks):
    """Simulated NPU: outputs come from the simulator, times from its cycle counts."""

    device = "cpu"
    host_casts_are_compute = True

    def __init__(self) -> None:
        chip_json = os.environ.get(CHIP_ENV)
        self.chip = ChipConfig.model_validate_json(chip_json) if chip_json else ChipConfig()
        self._costs: dict[str, tuple[float, int]] = {}
        self._eager: dict[tuple, dict[str, Any]] = {}
        """Both caches are keyed by the digest of the task in the work dir, so one hooks object can serve
        many evaluations (a long-lived runner) without mixing tasks up."""

    def solution_call(self, model: Any, inputs: Sequence[Any]) -> tuple[Any, dict[str, Any]]:
        with capture(self.chip) as launches:
            output = model(*inputs)
        if launches.failed:
            raise LaunchFailed(f"a launch raised and the solution went on without it: {launches.failed[0]}")
        if not launches:
            raise NoKernelLaunched("the solution launched no NPU kernel: compute the output in a @kernel "
                                   "function started with launch(kernel, block_dim, ...)")
        profile = Profile(launches)
        roofline = self.roofline(model, inputs, output)
        return output, timing_fields(profile, self.chip.clock_mhz, roofline)

    def reference_call(self, model: Any, inputs: Sequence[Any]) -> tuple[Any, dict[str, Any]]:
        key = (_task_digest(), type(model).__qualname__) + tuple(
            (tuple(x.shape), str(x.dtype)) if isinstance(x, torch.Tensor) else repr(x) for x in inputs)
        if key not in self._eager:
            eager = run_eager(model, list(inputs), self.chip)
            if eager.profile is None:
                self._eager[key] = {"runtime_ms": math.nan, "baseline": f"none: {eager.reason}"}
            else:
                self._eager[key] = timing_fields(eager.profile, self.chip.clock_mhz, None)
                return eager.output, dict(self._eager[key])
        return model(*inputs), dict(self._eager[key])

    def roofline(self, model: Any, inputs: Sequence[Any], output: Any) -> float:
        """Roofline cycles from compulsory GM bytes (inputs, the task's parameters, output) and the task's matmul
        FLOPs. The parameters are the reference model's: a solution's own (unused ones included) would raise
        the bound it is measured against."""
        tensors = [x for x in inputs if isinstance(x, torch.Tensor)]
        if isinstance(output, torch.Tensor):
            tensors.append(output)
        flops, parameter_bytes = self.task_costs(inputs)
        nbytes = sum(t.numel() * t.element_size() for t in tensors) + parameter_bytes
        dtype = str(inputs[0].dtype).removeprefix("torch.") if inputs else "float32"
        return roofline_cycles(self.chip, nbytes, flops, dtype)

    def task_costs(self, inputs: Sequence[Any]) -> tuple[float, int]:
        """Matmul/conv FLOPs and parameter bytes of the task's reference (``task.py`` in the runner's folder),
        counted once per task."""
        digest = _task_digest()
        if digest not in self._costs:
            self._costs[digest] = _reference_costs(Path("task.py"), Path("init.pt"), inputs)
        return self._costs[digest]

    def classify_error(self, error: BaseException) -> str | None:
        if isinstance(error, NpuKernelError):
            return "compile_error" if error.stage == "compile" else "crashed"
        return None


def timing_fields(profile: Profile, clock_mhz: float, roofline: float | None) -> dict[str, Any]:
    """What one simulated call reports to the runner (runtime_ms plus the profiler fields)."""
    data = profile.to_dict(roofline)
    fields = {"runtime_ms": profile.cycles / (clock_mhz * 1e3), "simulated": True, "cycles": data["cycles"],
              "bottleneck": data["bottleneck"], "pipe_busy": data["pipe_busy"], "launches": data["launches"],
              "gm_bytes": profile.gm_bytes(), "chip": data["chip"], "profile": profile.text(roofline)}
    if roofline is not None:
        fields["roofline_fraction"] = round(data["roofline_fraction"], 4)
    return fields


def _task_digest() -> str:
    """Digest of ``task.py`` in the current work dir ('' when there is none)."""
    task = Path("task.py")
    return hashlib.sha256(task.read_bytes()).hexdigest() if task.is_file() else ""


def _reference_costs(task_path: Path, init_path: Path, inputs: Sequence[Any]) -> tuple[float, int]:
    if not task_path.is_file():
        return 0.0, 0
    module = types.ModuleType("npu_roofline_task")
    exec(compile(task_path.read_text(), str(task_path), "exec"), module.__dict__)
    init = torch.load(init_path, weights_only=True) if init_path.is_file() else module.get_init_inputs()
    reference = module.Model(*init)
    parameter_bytes = sum(p.numel() * p.element_size() for p in reference.parameters())
    return float(count_flops(reference, list(inputs))), parameter_bytes


HOOKS = NpuHooks()
