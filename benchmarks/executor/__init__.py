"""Where evaluations run: ``local`` (this process, the default) or ``ray`` (a Ray cluster); see ``base``."""

from __future__ import annotations

import os

from sandboxes.errors import UserError

from benchmarks.executor.base import Executor, Job, Needs, Place, run_all
from benchmarks.executor.local import LocalExecutor

__all__ = ["Executor", "Job", "Needs", "Place", "LocalExecutor", "make_executor", "check_spec", "run_all"]
ENV_VAR = "AGENT_EXECUTOR"
SPEC_HELP = ("Where evaluations run: local (this process, the default), ray (the Ray cluster at RAY_ADDRESS, "
             "else a new local instance) or ray://HOST:PORT (a Ray Client address). Env: AGENT_EXECUTOR.")


def check_spec(spec: str | None) -> str:
    """The executor ``spec`` names (None: ``AGENT_EXECUTOR``, else local); one clear line when it names none."""
    chosen = (spec or os.environ.get(ENV_VAR) or "local").strip()
    if chosen in ("local", "ray") or (chosen.startswith("ray://") and len(chosen) > len("ray://")):
        return chosen
    raise UserError(f"unknown executor {chosen!r}: use local, ray or ray://HOST:PORT")


def make_executor(spec: str | None = None, sandbox: str | None = None) -> Executor:
    """The executor ``spec`` names (see :func:`check_spec`); ``sandbox``: the backend its nodes evaluate in."""
    chosen = check_spec(spec)
    if chosen == "local":
        return LocalExecutor(sandbox)
    from benchmarks.executor.ray_executor import RayExecutor, RayExecutorConfig

    return RayExecutor(RayExecutorConfig(address=None if chosen == "ray" else chosen, sandbox=sandbox))
