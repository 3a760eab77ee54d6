"""``agent sandbox build``: the images this machine can make (always the imported base image)."""

from __future__ import annotations

import os
from pathlib import Path

from sandboxes.docker_engine import client, engine_problem
from sandboxes.docker_image import REPOSITORY, ensure_image
from sandboxes.errors import UserError

DOCKERFILES = Path(__file__).with_name("docker")
CANN_BASE_ENV = "AGENT_CANN_BASE_IMAGE"


def _dockerfile_row(engine, name: str) -> dict:
    dockerfile = f"Dockerfile.{name}"
    tag = f"agentkiln/sandbox-{name}:latest"
    build_args = {}
    if name == "ascend":
        if not os.environ.get(CANN_BASE_ENV):
            return {"image": tag, "source": dockerfile, "status": "skipped",
                    "detail": f"set {CANN_BASE_ENV} to your Ascend CANN image"}
        build_args["CANN_BASE"] = os.environ[CANN_BASE_ENV]
    try:
        engine.images.build(path=str(DOCKERFILES), dockerfile=dockerfile, tag=tag, buildargs=build_args, rm=True)
        return {"image": tag, "source": dockerfile, "status": "built", "detail": ""}
    except Exception as error:  # pull failures, build errors: reported per image
        first = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
        return {"image": tag, "source": dockerfile, "status": "failed", "detail": first[:200]}


def build_images(with_dockerfiles: bool = False) -> list[dict]:
    """Import the base image (host toolchains are mounted at run time); optionally build the Dockerfiles."""
    problem = engine_problem()
    if problem is not None:
        raise UserError(f"cannot build sandbox images: the Docker engine does not answer ({problem}); "
                        "start it with .ci/start-dockerd.sh")
    engine = client()
    existed = bool(engine.images.list(name=REPOSITORY))
    tag = ensure_image(engine)
    rows = [{"image": tag, "source": "docker import of a generated root file system", "status": "built",
             "detail": "already present" if existed and engine.images.list(name=tag) else "imported"}]
    if with_dockerfiles:
        rows += [_dockerfile_row(engine, name) for name in ("python-slim", "cuda", "ascend")]
    return rows
