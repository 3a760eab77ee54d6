"""Pick a sandbox backend by name: ``docker``, ``local`` or ``auto`` (docker when the engine answers)."""

from __future__ import annotations

import functools
import logging
import os

from sandboxes.base import Sandbox
from sandboxes.errors import UserError
from sandboxes.telemetry import emit

log = logging.getLogger(__name__)
BACKENDS = ("auto", "docker", "local")


@functools.lru_cache(maxsize=None)
def _cached(name: str) -> Sandbox:
    if name == "local":
        from sandboxes.local import LocalSandbox
        return LocalSandbox()
    from sandboxes.docker_sandbox import DockerSandbox
    return DockerSandbox()


def docker_answers() -> str | None:
    """None when the local Docker engine answers, else the reason it does not."""
    from sandboxes.docker_engine import engine_problem
    return engine_problem()


def get_sandbox(name: str | None = None) -> Sandbox:
    """The backend called ``name`` (default: ``AGENT_SANDBOX`` or ``auto``); one shared instance per name.

    ``auto`` picks docker when the engine answers and local otherwise, and logs the choice.
    """
    name = (name or os.environ.get("AGENT_SANDBOX") or "auto").lower()
    if name not in BACKENDS:
        raise UserError(f"unknown sandbox backend {name!r}; choose one of {', '.join(BACKENDS)}")
    if name == "auto":
        problem = docker_answers()
        name = "docker" if problem is None else "local"
        reason = "the Docker engine answers" if problem is None else f"docker unavailable: {problem}"
        log.info("sandbox auto-selection: %s (%s)", name, reason)
        emit("sandbox.selected", backend=name, reason=reason)
    elif name == "docker":
        problem = docker_answers()
        if problem is not None:
            raise UserError(f"the docker sandbox needs a running Docker engine: {problem}")
    return _cached(name)
