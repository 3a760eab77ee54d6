"""Pick a sandbox backend by name: ``docker``, ``local`` or ``auto`` (docker when the engine answers).

Before a backend is handed out for the first time in a process it must prove that it can run a trivial job
(this Python, with its packages); if it cannot, the caller gets one clear line saying what failed and how to
fix it, instead of every later job failing as if the code it ran were wrong.
"""

from __future__ import annotations

import functools
import logging
import os
import site
import sys

from sandboxes.base import Limits, RunResult, Sandbox
from sandboxes.errors import UserError
from sandboxes.telemetry import emit

log = logging.getLogger(__name__)
BACKENDS = ("auto", "docker", "local")
PROOF_CHECK = ("import importlib.util, os\nhidden = [p for p in {sites!r} if not os.path.isdir(p)]\n"
               "print('packages hidden: ' + ', '.join(hidden) if hidden else 'sandbox ok' "
               "if importlib.util.find_spec('pydantic') else 'pydantic not found')")
"""The trivial job: the running Python starts, sees each of its site-packages folders and imports a dependency."""
PROOF_LIMITS = Limits(wall_s=120, cpu_s=60, memory_mb=512, pids=32, disk_mb=16)
FIXES = {
    "local": "install bubblewrap (apt-get install bubblewrap), or start Docker (.ci/start-dockerd.sh) and pass "
             "--sandbox docker (AGENT_SANDBOX=docker)",
    "docker": "start the Docker engine (.ci/start-dockerd.sh), or pass --sandbox local (AGENT_SANDBOX=local)",
}


@functools.lru_cache(maxsize=None)
def _cached(name: str) -> Sandbox:
    try:
        sandbox = _construct(name)
    except UserError:
        raise
    except Exception as error:  # e.g. the base image cannot be built: one line with the fix, not a traceback
        raise UserError(f"the {name} sandbox could not be set up ({type(error).__name__}: {error}); "
                        f"fix: {FIXES[name]}") from error
    prove(sandbox, name)
    return sandbox


def _construct(name: str) -> Sandbox:
    if name == "local":
        from sandboxes.local import LocalSandbox
        return LocalSandbox()
    from sandboxes.docker_sandbox import DockerSandbox
    return DockerSandbox()


def prove(sandbox: Sandbox, name: str) -> None:
    """Run :func:`proof_job` in ``sandbox``; a UserError naming what failed and the fix when it does not work.
    On the local backend, also warn (one line each) about the safety guarantees this host lacks."""
    try:
        failure = _failure(sandbox.run([sys.executable, "-c", proof_job()], limits=PROOF_LIMITS))
    except Exception as error:  # whatever stops the backend from starting the job is the finding
        failure = f"{type(error).__name__}: {error}"
    if failure:
        emit("sandbox.unusable", backend=name, failure=failure)
        raise UserError(f"the {name} sandbox cannot run a trivial job ({failure}); fix: {FIXES[name]}")
    caps = getattr(sandbox, "caps", None)
    if caps is not None:
        from sandboxes.guarantees import safety_warnings

        for line in safety_warnings(caps):
            log.warning("warning: %s", line)
            emit("sandbox.warning", backend=name, warning=line)


def proof_job() -> str:
    """:data:`PROOF_CHECK` for this interpreter's site-packages folders (a venv's and, with system site packages,
    its base installation's)."""
    return PROOF_CHECK.format(sites=[p for p in site.getsitepackages() if os.path.isdir(p)])


def _failure(result: RunResult) -> str:
    """'' when the proof job worked, else what went wrong in a few words."""
    if result.ok and result.stdout.strip() == "sandbox ok":
        return ""
    if result.sandbox_error:
        return result.sandbox_error
    said = (result.stderr.strip() or result.stdout.strip()).splitlines()
    detail = said[-1][:300] if said else "no output"
    return f"{sys.executable} exited {result.returncode}: {detail}"


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
