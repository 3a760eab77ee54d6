"""Run an ascendc project inside a user-named CANN container with the host's Ascend devices.

Order of checks, each a one-line UserError: an image name, an Ascend device on this machine, a
Docker engine, the image present locally. Then ``run.sh`` (msopgen → build → install → pybind
wrapper → test) runs in the container with the project folder mounted.
"""

from __future__ import annotations

import glob
import os
import tempfile
from dataclasses import dataclass
from pathlib import Path

from sandboxes.errors import UserError
from sandboxes.settings import Config
from sandboxes.targets.ascendc.project import AscendcProject

IMAGE_ENV = "AGENT_ASCENDC_IMAGE"
CONTROL_NODES = ("/dev/davinci_manager", "/dev/devmm_svm", "/dev/hisi_hdc")
DRIVER_DIR = "/usr/local/Ascend/driver"


class AscendcConfig(Config):
    """Where and how the real CANN toolchain runs."""

    image: str | None = None
    """CANN container image (with msopgen, the toolkit and torch_npu); default: $AGENT_ASCENDC_IMAGE."""
    soc: str = "Ascend910B2"
    """SoC version passed to msopgen (ai_core-<soc>)."""
    device_glob: str = "/dev/davinci[0-9]*"
    """Device nodes of the Ascend NPUs to pass into the container."""
    timeout_s: float = 1800.0
    """Wall-clock limit for the whole build-install-test script."""


@dataclass
class AscendcOutcome:
    """What the container run did."""

    ok: bool
    log: str
    exit_code: int


def require_image(config: AscendcConfig) -> str:
    image = config.image or os.environ.get(IMAGE_ENV)
    if not image:
        raise UserError(f"no CANN image: name a CANN container image with --ascendc-image or ${IMAGE_ENV} "
                        "(the CANN toolkit cannot be downloaded here)")
    return image


def require_devices(config: AscendcConfig) -> list[str]:
    devices = sorted(glob.glob(config.device_glob))
    if not devices:
        raise UserError(f"no Ascend device on this machine (nothing matches {config.device_glob}); "
                        "use --target npu for the simulated NPU")
    return devices + [node for node in CONTROL_NODES if os.path.exists(node)]


def docker_client():
    try:
        import docker

        client = docker.from_env()
        client.ping()
        return client
    except Exception as error:  # the SDK raises several types when no engine answers
        raise UserError(f"the ascendc target needs a running Docker engine: {error}") from error


def require_image_present(client, image: str) -> None:
    import docker.errors

    try:
        client.images.get(image)
    except docker.errors.ImageNotFound as error:
        raise UserError(f"CANN image {image!r} is not present locally (no registry is reachable): "
                        f"load it with 'docker load' first") from error


def run_project(project: AscendcProject, config: AscendcConfig | None = None) -> AscendcOutcome:
    """Write the project, then run its build-install-test script in the CANN container."""
    config = config or AscendcConfig()
    image = require_image(config)
    devices = require_devices(config)
    client = docker_client()
    require_image_present(client, image)
    with tempfile.TemporaryDirectory(prefix="ascendc-") as folder:
        project.write(Path(folder))
        volumes = {folder: {"bind": "/work", "mode": "rw"}}
        if os.path.isdir(DRIVER_DIR):
            volumes[DRIVER_DIR] = {"bind": DRIVER_DIR, "mode": "ro"}
        container = client.containers.run(
            image, ["bash", "/work/run.sh"], detach=True, network_mode="none", volumes=volumes,
            devices=[f"{d}:{d}:rwm" for d in devices], environment={"ASCEND_SOC": config.soc})
        try:
            status = container.wait(timeout=config.timeout_s)
            log = container.logs().decode(errors="replace")
        finally:
            container.remove(force=True)
    code = int(status.get("StatusCode", 1))
    return AscendcOutcome(ok=code == 0, log=log[-20000:], exit_code=code)
