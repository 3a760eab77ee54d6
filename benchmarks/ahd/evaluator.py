"""Evaluate candidate heuristics in the sandbox under limits, in parallel, cached by code hash.

Each instance set runs as one sandboxed process (``harness.py`` + the problem's runner + the
candidate + ``data.npz``); the returned solutions are verified and scored here, outside the
sandbox. A crash, timeout, memory kill, invalid return, illegal solution or non-finite score is a
failed :class:`Evaluation` with a readable message.
"""

from __future__ import annotations

import contextvars
import json
import math
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from functools import cached_property
from pathlib import Path

from pydantic import Field

from benchmarks.ahd.cache import EvaluationCache, code_hash
from benchmarks.ahd.evaluation import Evaluation
from benchmarks.ahd.problem import RUNNERS_DIR, IllegalSolution, InstanceSet, Problem
from sandboxes.base import Limits, RunResult, Sandbox
from sandboxes.errors import UserError
from sandboxes.settings import Config
from sandboxes.telemetry import emit


SANDBOX_ATTEMPTS = 3


class EvaluatorConfig(Config):
    """Limits and parallelism of candidate evaluation."""

    wall_s: float = 60.0
    """Wall-clock limit for one instance set in the sandbox."""
    memory_mb: int = 2048
    """Memory limit of the sandboxed process."""
    workers: int = 2
    """Candidates evaluated at the same time."""
    sandbox: str | None = None
    """Sandbox backend (docker, local, auto); None means ``AGENT_SANDBOX`` or auto."""
    cache_path: Path | None = Field(default=None)
    """SQLite file caching results by code hash; no cache when unset."""


def default_sandbox(name: str | None = None) -> Sandbox:
    from sandboxes.select import get_sandbox

    return get_sandbox(name)


class Evaluator:
    """Scores heuristics for one problem on one split (``train`` or ``test``)."""

    def __init__(self, problem: Problem, split: str = "train", config: EvaluatorConfig | None = None,
                 sandbox: Sandbox | None = None, sizes: set[int] | None = None):
        self.problem = problem
        self.sizes = sizes
        self.split = split
        self.config = config or EvaluatorConfig()
        self._sandbox = sandbox
        self.cache = EvaluationCache(self.config.cache_path) if self.config.cache_path else None

    @cached_property
    def sandbox(self) -> Sandbox:
        return self._sandbox or default_sandbox(self.config.sandbox)

    @cached_property
    def instance_sets(self) -> list[tuple[InstanceSet, bytes]]:
        specs = [s for s in self.problem.set_specs(self.split) if self.sizes is None or s.size in self.sizes]
        return [(instances, instances.to_npz()) for instances in map(self.problem.make, specs)]

    @cached_property
    def _static_files(self) -> dict[str, bytes]:
        return {"harness.py": (RUNNERS_DIR / "harness.py").read_bytes(),
                "ahd_common.py": (RUNNERS_DIR / "ahd_common.py").read_bytes(),
                "runner.py": self.problem.runner_source().encode()}

    @property
    def limits(self) -> Limits:
        return Limits(wall_s=self.config.wall_s, cpu_s=self.config.wall_s, memory_mb=self.config.memory_mb,
                      pids=16, output_bytes=200_000, network=False)

    def sibling(self, split: str, wall_s: float) -> "Evaluator":
        """An evaluator of the same problem on another split, sharing the sandbox and the cache."""
        config = self.config.model_copy(update={"wall_s": wall_s})
        return Evaluator(self.problem, split, config, sandbox=self._sandbox)

    def evaluate(self, code: str) -> Evaluation:
        """Score ``code``: from the cache when seen before, else in the sandbox."""
        key = EvaluationCache.key(self.problem.name, self.split, code)
        if self.cache and (hit := self.cache.get(key)) is not None:
            return Evaluation.from_dict({**hit, "cached": True})
        evaluation = self.evaluate_uncached(code)
        if self.cache:
            self.cache.put(key, evaluation.to_dict())
        emit("ahd.evaluation", problem=self.problem.name, split=self.split, code_hash=evaluation.code_hash,
             ok=evaluation.ok, score=evaluation.score, failure=evaluation.failure, seconds=evaluation.seconds)
        return evaluation

    def evaluate_many(self, codes: list[str]) -> list[Evaluation]:
        """Score several candidates in parallel; identical codes are evaluated once."""
        unique = list(dict.fromkeys(codes))
        _ = self.sandbox, self.instance_sets  # resolve once, before the worker threads start
        context = contextvars.copy_context()  # worker threads report events to the caller's run
        with ThreadPoolExecutor(max_workers=max(1, self.config.workers)) as pool:
            results = dict(zip(unique, pool.map(lambda code: context.copy().run(self.evaluate, code), unique)))
        return [results[code] for code in codes]

    def evaluate_uncached(self, code: str) -> Evaluation:
        """Score ``code`` in the sandbox, ignoring and not filling the cache (for timing)."""
        digest = code_hash(code)
        gaps, errors, seconds = {}, {}, 0.0
        for instances, npz in self.instance_sets:
            outcome = self._run_set(code, digest, instances, npz)
            if isinstance(outcome, Evaluation):
                outcome.seconds += seconds
                return outcome
            name = instances.spec.name
            gaps[name], errors[name], set_seconds = outcome
            seconds += set_seconds
        return Evaluation(digest, True, score=sum(gaps.values()) / len(gaps), gaps=gaps, gap_errors=errors,
                          seconds=seconds)

    def _run_set(self, code: str, digest: str, instances: InstanceSet, npz: bytes) -> Evaluation | tuple:
        task = {"function_name": self.problem.function_name, "options": self.problem.runner_options(instances.spec)}
        files = {**self._static_files, "candidate.py": code.encode(), "data.npz": npz,
                 "task.json": json.dumps(task).encode()}
        for attempt in range(SANDBOX_ATTEMPTS):
            result = self._sandbox_run(files, attempt)
            # the harness always writes a result; none means the process itself died, so try again
            if "result.json" in result.files or result.timed_out or result.oom_killed:
                break
        return self._score(result, digest, instances)

    def _sandbox_run(self, files: dict[str, bytes], attempt: int) -> RunResult:
        """One sandboxed harness run; a sandbox that cannot start (EAGAIN on a busy host) is retried."""
        try:
            return self.sandbox.run([sys.executable, "harness.py"], files=files, limits=self.limits,
                                    collect=["result.json"])
        except OSError as error:
            if attempt == SANDBOX_ATTEMPTS - 1:
                raise UserError(f"the sandbox could not start a process: {error}") from error
            time.sleep(1.0 + attempt)
            return RunResult(returncode=-1, stdout="", stderr=str(error))

    def _score(self, result: RunResult, digest: str, instances: InstanceSet) -> Evaluation | tuple:
        where = f"on {instances.spec.name}"
        if result.timed_out:
            return Evaluation.failed(digest, "timeout", f"exceeded {self.config.wall_s:g} s {where}", result.wall_s)
        if result.oom_killed:
            return Evaluation.failed(digest, "memory", f"exceeded {self.config.memory_mb} MiB {where}")
        if "result.json" not in result.files:
            tail = (result.stderr or result.stdout or "").strip()[-800:]
            return Evaluation.failed(digest, "crash", f"exit code {result.returncode} {where}, no result: {tail}")
        payload = json.loads(result.files["result.json"])
        if payload["status"] != "ok":
            return Evaluation.failed(digest, payload["kind"], f"{payload['message']} {where}\n{payload['traceback']}")
        return self._gap(payload, digest, instances)

    def _gap(self, payload: dict, digest: str, instances: InstanceSet) -> Evaluation | tuple:
        where = f"on {instances.spec.name}"
        try:
            objectives = self.problem.objectives(instances, payload["solutions"])
        except IllegalSolution as error:
            return Evaluation.failed(digest, "illegal_solution", f"{error} {where}")
        gap = self.problem.gap_percent(instances, objectives)
        if not math.isfinite(gap):
            return Evaluation.failed(digest, "nan", f"score is {gap} {where}")
        return gap, self.problem.gap_standard_error(instances, objectives), float(payload["seconds"])
