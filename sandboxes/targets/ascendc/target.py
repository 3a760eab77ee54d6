"""The ``ascendc`` Target: Ascend C solutions (MultiKernelBench's six source strings) built and run
with the real CANN toolchain in a user-named container. Not exercised on hardware here."""

from __future__ import annotations

from typing import Sequence

from sandboxes.base import Sandbox
from sandboxes.errors import UserError
from sandboxes.targets.ascendc.project import FIELDS, AscendcProject, op_type_of
from sandboxes.targets.ascendc.runner import AscendcConfig, docker_client, require_devices, require_image, run_project
from sandboxes.targets.base import Availability, BuildOutcome, ExtensionSpec, RunnerSettings, Target, TimingMode

LANGUAGE = """\
Ascend C for the real CANN toolchain: define the string variables project_json_src (op definition JSON),
host_tiling_src (BEGIN_TILING_DATA_DEF ...), host_operator_src (TilingFunc, InferShape, OpDef),
kernel_src (the __global__ __aicore__ kernel), python_bind_src (pybind11 + EXEC_NPU_CMD) and model_src
(ModelNew calling custom_ops_lib)."""


class AscendcTarget(Target):
    """Real Ascend NPUs through CANN; every step runs inside the user's CANN container."""

    name = "ascendc"
    solution_language = LANGUAGE

    def __init__(self, config: AscendcConfig | None = None) -> None:
        self.config = config or AscendcConfig()

    def availability(self) -> Availability:
        try:
            require_image(self.config)
            require_devices(self.config)
            docker_client()
        except UserError as error:
            return Availability(False, False, False, str(error))
        return Availability(True, True, True, "CANN container with Ascend devices")

    def runner_settings(self) -> RunnerSettings:
        return RunnerSettings(hooks="sandboxes.targets.ascendc.hooks", timing=TimingMode.DEVICE,
                              baseline="torch_npu eager", cache_salt=f"ascendc:{self.config.soc}")

    def allowed_modules(self) -> Sequence[str]:
        return ("custom_ops_lib", "torch_npu")

    def build(self, spec: ExtensionSpec, sandbox: Sandbox) -> BuildOutcome:
        """Build, install and smoke-test one operator (``spec.options`` holds the six sources)."""
        missing = [name for name in FIELDS if name not in spec.options]
        if spec.kind != "ascendc" or missing:
            return BuildOutcome(ok=False, error=f"not an ascendc project (missing {missing or spec.kind})")
        sources = {name: str(spec.options[name]) for name in FIELDS}
        project = AscendcProject(op_type=op_type_of(sources["project_json_src"]), **sources)
        outcome = run_project(project, self.config)
        return BuildOutcome(ok=outcome.ok, error="" if outcome.ok else outcome.log[-4000:],
                            note=f"CANN container exit code {outcome.exit_code}")
