"""The ``npu`` Target: kernels in the Python-embedded Ascend-C-like language, checked and timed
on the simulated chip. Every time it reports is simulated and marked so."""

from __future__ import annotations

import os
from typing import Any, Mapping, Sequence

from sandboxes.base import Sandbox
from sandboxes.targets.base import (Availability, BuildOutcome, ExtensionSpec, RunnerSettings, StaticRule, Target,
                                    TimingMode)
from sandboxes.targets.npu.chip import load_chip
from sandboxes.targets.npu.hooks import CHIP_ENV
from sandboxes.targets.npu.rules import RULES

CHIP_NAME_ENV = "AGENT_NPU_CHIP"

LANGUAGE = """\
Write the kernel in Python with `from sandboxes.targets.npu.lang import *` (an Ascend C look-alike):
a @kernel function (core_type AIV_ONLY for vector, AIC_ONLY for cube) that sets GlobalTensor views with
SetGlobalBuffer(x[offset], size), allocates UB/L1/L0 buffers with TPipe.InitBuffer(TQue(TPosition.VECIN), num, bytes),
moves data with DataCopy / DataCopyPad / Nd2NzParams (32-byte rules), computes with vector instructions
(Add, Mul, Exp, ReduceSum, ...) or LoadData + Mmad + Fixpipe, and passes tensors between pipes with
AllocTensor/EnQue/DeQue/FreeTensor. ModelNew.forward computes the host tiling (a TilingData subclass),
allocates outputs with torch.empty, and calls launch(kernel, block_dim, inputs..., outputs..., tiling).
Offset GM addresses with x[offset] (not x + offset). Host code may do arithmetic only on sizes (shapes, numel,
constants, __init__ arguments), never on tensors; kernel bodies use the language freely (CeilDiv, AlignUp,
BlockSpan, CopyIn/CopyOut) and ScalarExp/ScalarLog/ScalarSqrt for scalar math.
Times are simulated cycles of an Ascend 910B-like chip; the profile names the bottleneck pipe."""


class NpuTarget(Target):
    """Simulated Ascend-style NPU."""

    name = "npu"
    simulated = True
    solution_language = LANGUAGE
    kernel_languages = ("npu",)

    def __init__(self, chip: str | None = None) -> None:
        """``chip``: a chip name or TOML path; default ``$AGENT_NPU_CHIP``, else the 910B2 config."""
        self.chip_spec = chip or os.environ.get(CHIP_NAME_ENV) or None
        self.chip = load_chip(self.chip_spec)

    def availability(self) -> Availability:
        return Availability(True, True, True, f"simulated {self.chip.name}; all times are simulated")

    def runner_settings(self) -> RunnerSettings:
        env = {CHIP_ENV: self.chip.model_dump_json()} if self.chip_spec else {}
        return RunnerSettings(hooks="sandboxes.targets.npu.hooks", timing=TimingMode.SIMULATED, env=env,
                              baseline="npu-eager (simulated per-operator template kernels, GM round trips)",
                              cache_salt=f"npu:{self.chip.name}")

    def static_rules(self) -> Sequence[StaticRule]:
        return RULES

    def build(self, spec: ExtensionSpec, sandbox: Sandbox) -> BuildOutcome:
        return BuildOutcome(ok=False, error=f"{spec.kind} build requested: the npu target runs no native code; "
                                            f"write the kernel with sandboxes.targets.npu.lang")

    def row_extras(self, timing_extras: Mapping[str, Any]) -> dict[str, Any]:
        extras = super().row_extras(timing_extras)
        extras["simulated"] = True
        return extras
