"""The system tools some tests need, how to tell whether this machine has them, and the skip that says so.

A test marked with one of :data:`SYSTEM_TOOLS`' markers (or calling :func:`require_tool`) is skipped where the
tool is missing; the reason names the tool and its install command, so ``pytest -ra`` lists what to install.
"""

from __future__ import annotations

import functools
import shutil
from typing import Callable

import pytest


def _docker_problem() -> str | None:
    from sandboxes.select import docker_answers

    return docker_answers()


def _bwrap_problem() -> str | None:
    from sandboxes.isolation import probe

    return None if probe().bwrap else "bwrap is missing or cannot create namespaces here"


def _gpu_problem() -> str | None:
    from sandboxes.targets.gpu import gpu_present

    return None if gpu_present() else "torch sees no CUDA device"


def _on_path(binary: str) -> Callable[[], str | None]:
    return lambda: None if shutil.which(binary) else f"{binary} is not on PATH"


SYSTEM_TOOLS: dict[str, tuple[str, str, Callable[[], str | None]]] = {
    "klayout": ("Debian's KLayout binary (runs Ruby DRC decks)", "apt-get install klayout", _on_path("klayout")),
    "docker": ("a running Docker engine", "apt-get install docker.io, then .ci/start-dockerd.sh", _docker_problem),
    "bwrap": ("bubblewrap", "apt-get install bubblewrap", _bwrap_problem),
    "nvcc": ("the CUDA compiler nvcc", "install the CUDA toolkit (apt-get install nvidia-cuda-toolkit)",
             _on_path("nvcc")),
    "gpu": ("a CUDA GPU", "run on a machine with an NVIDIA GPU, its driver and a CUDA build of torch", _gpu_problem),
}
"""marker -> (what the marked tests need, how to install it, a check that says why it is missing or None)."""


@functools.lru_cache(maxsize=None)
def missing_tool(marker: str) -> str | None:
    """Why the tests marked ``marker`` cannot run here (the skip reason), or None when the tool is present."""
    what, install, check = SYSTEM_TOOLS[marker]
    problem = check()
    return None if problem is None else f"needs {what}: {problem}; install: {install}"


def require_tool(marker: str) -> None:
    """Skip the calling test or fixture unless the system tool behind ``marker`` is present."""
    reason = missing_tool(marker)
    if reason:
        pytest.skip(reason)
