"""Evaluate many predictions: instances in parallel (``workers``), environments shared and cached."""

from __future__ import annotations

import contextvars
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable

from pydantic import Field

from sandboxes.base import Limits
from sandboxes.errors import UserError
from sandboxes.settings import Config

from benchmarks.repo.checkout import RepoCache
from benchmarks.resolve.envs import EnvCache
from benchmarks.resolve.evaluate import EvalContext, Outcome, evaluate
from benchmarks.resolve.grading import check_parser
from benchmarks.resolve.instances import Instance, Prediction
from benchmarks.resolve.specs import EnvSpec, load_specs, spec_for

EVAL_LOGS = Path("logs") / "run_evaluation"
"""SWE-bench's ``RUN_EVALUATION_LOG_DIR``, kept under the run's artifacts."""


def default_limits() -> Limits:
    return Limits(wall_s=600, cpu_s=600, memory_mb=4096, pids=512, disk_mb=2048)


class ResolveConfig(Config):
    """How the resolution harness evaluates predictions."""

    workers: int = Field(1, ge=1)
    """Instances evaluated at once (threads; each runs its tests in its own sandbox)."""
    cache_dir: str = ".cache/repos"
    """Where bare clones of the repositories are kept."""
    env_dir: str = ".cache/resolve-envs"
    """Where the environments (one venv per repository, version and spec) are kept and reused."""
    mirrors: str | None = None
    """A folder of local repositories named ``owner__name`` or ``name``."""
    allow_clone: bool = False
    """Clone ``https://github.com/<repo>`` when no local copy exists."""
    specs: str | None = None
    """JSON file of environment specs ``{repo: {version: spec}}`` (SWE-bench's per-repository keys)."""
    sandbox: str | None = None
    """Sandbox backend for the tests (docker, local, auto); None = AGENT_SANDBOX or auto."""
    limits: Limits = Field(default_factory=default_limits)
    """Limits of one instance's test run (network is always off)."""


def specs_of(instances: list[Instance], config: ResolveConfig) -> dict[str, EnvSpec]:
    """Each instance's spec, checked before anything runs (a missing spec or unknown parser is a UserError)."""
    table = load_specs(config.specs)
    specs = {i.instance_id: spec_for(i, table) for i in instances}
    for name in {spec.log_parser for spec in specs.values()}:
        check_parser(name)
    return specs


def evaluate_all(instances: list[Instance], predictions: dict[str, Prediction], config: ResolveConfig, logs: Path,
                 on_done: Callable[[Outcome], None] | None = None) -> dict[str, Outcome]:
    """Evaluate the instances that have a prediction, ``config.workers`` at a time; outcomes by instance id."""
    if config.limits.network:
        raise UserError("the tests of an instance run with the network off; limits.network must stay false")
    specs = specs_of(instances, config)
    from sandboxes.select import get_sandbox

    ctx = EvalContext(RepoCache(config.cache_dir, config.mirrors, config.allow_clone), EnvCache(config.env_dir),
                      get_sandbox(config.sandbox), logs, config.limits)
    todo = [i for i in instances if i.instance_id in predictions]

    def one(instance: Instance) -> Outcome:
        outcome = evaluate(instance, predictions[instance.instance_id], ctx, specs[instance.instance_id])
        if on_done is not None:
            on_done(outcome)
        return outcome

    if config.workers <= 1 or len(todo) <= 1:
        return {o.instance_id: o for o in map(one, todo)}
    contexts = [contextvars.copy_context() for _ in todo]  # events from the workers reach the run
    with ThreadPoolExecutor(max_workers=config.workers) as pool:
        return {o.instance_id: o for o in pool.map(lambda c, i: c.run(one, i), contexts, todo)}
