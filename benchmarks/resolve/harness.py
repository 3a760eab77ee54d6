"""Evaluate many predictions: instances in parallel (``workers``) through the Executor seam, environments shared
and cached."""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from pydantic import Field

from sandboxes.base import Limits
from sandboxes.errors import UserError
from sandboxes.settings import Config

from benchmarks.executor import Executor, Job, LocalExecutor, Place, run_all
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
    """Instances evaluated at once (each runs its tests in its own sandbox)."""
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


def evaluate_job(place: Place, row: dict, prediction: dict, spec: dict, settings: dict, logs: str) -> dict:
    """One evaluation as an executor job (plain arguments, so it can travel to a Ray node): the place keeps
    the repository and environment caches warm between the evaluations it runs."""
    config = ResolveConfig(**settings)
    cache = place.keep(f"resolve-repos:{config.cache_dir}:{config.mirrors}",
                       lambda: RepoCache(config.cache_dir, config.mirrors, config.allow_clone))
    envs = place.keep(f"resolve-envs:{config.env_dir}", lambda: EnvCache(config.env_dir))
    ctx = EvalContext(cache, envs, place.sandbox(), Path(logs), config.limits)
    outcome = evaluate(Instance.from_row(row), Prediction(**prediction), ctx, EnvSpec(**spec))
    return outcome.to_dict()


def evaluate_all(instances: list[Instance], predictions: dict[str, Prediction], config: ResolveConfig, logs: Path,
                 on_done: Callable[[Outcome], None] | None = None,
                 executor: Executor | None = None) -> dict[str, Outcome]:
    """Evaluate the instances that have a prediction, ``config.workers`` at a time, through ``executor`` (None:
    the local one, this process); outcomes by instance id."""
    if config.limits.network:
        raise UserError("the tests of an instance run with the network off; limits.network must stay false")
    specs = specs_of(instances, config)
    settings, folder = config.model_dump(mode="json"), str(Path(logs).resolve())
    jobs = [Job(f"resolve:{i.instance_id}", evaluate_job,
                (i.data, predictions[i.instance_id].to_row(), specs[i.instance_id].model_dump(), settings, folder))
            for i in instances if i.instance_id in predictions]
    owned = executor is None
    executor = executor or LocalExecutor(config.sandbox)

    def finished(_done: int, _index: int, value: dict) -> None:
        if on_done is not None:
            on_done(Outcome.from_dict(value))
    try:
        values = run_all(executor, jobs, width=config.workers, on_result=finished)
    finally:
        if owned:
            executor.close()
    return {value["instance_id"]: Outcome.from_dict(value) for value in values}
