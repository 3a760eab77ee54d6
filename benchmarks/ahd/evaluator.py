"""Evaluate candidate heuristics in the sandbox under limits, in batches and in parallel, cached by code hash.

:meth:`Evaluator.evaluate_batch` is the one entry point that runs candidates: for each instance set, one
sandboxed process runs the whole batch (``batch``: ``harness.py`` + the problem's runner + the candidates
+ ``data.npz``, each candidate in its own forked child under its own limits); the returned solutions are
verified and scored here, outside the sandbox. A crash, timeout, memory kill, invalid return, illegal
solution or non-finite score is a failed :class:`Evaluation` with a readable message.
:meth:`Evaluator.evaluate_many` answers from the cache what it can and spreads the rest over ``workers``
batches of at most ``batch_size`` candidates.
"""

from __future__ import annotations

from functools import cached_property
from pathlib import Path
from typing import Any

from pydantic import Field, PositiveInt

from benchmarks.ahd.batch import SetJob, SetScore, run_set
from benchmarks.ahd.cache import EvaluationCache, code_hash
from benchmarks.ahd.evaluation import Evaluation
from benchmarks.ahd.problem import RUNNERS_DIR, InstanceSet, Problem
from benchmarks.executor import Executor, Job, LocalExecutor, Place, run_all
from sandboxes.base import Sandbox
from sandboxes.settings import Config
from sandboxes.telemetry import emit


class EvaluatorConfig(Config):
    """Limits, batching and parallelism of candidate evaluation."""

    wall_s: float = 60.0
    """Wall-clock limit for one candidate on one instance set."""
    memory_mb: int = 2048
    """Memory limit of the sandboxed process (and the address space of each candidate in it)."""
    workers: int = 2
    """Batches evaluated at the same time."""
    batch_size: PositiveInt = 8
    """Candidates evaluated by one sandboxed process."""
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
                 sandbox: Sandbox | None = None, sizes: set[int] | None = None, executor: Executor | None = None):
        self.problem = problem
        self.sizes = sizes
        self.split = split
        self.config = config or EvaluatorConfig()
        self._sandbox = sandbox
        self.executor = executor or LocalExecutor()
        """Where batches run (default here; on ray each node scores them in its own sandbox, while the cache and
        the events stay in this process)."""
        self.cache = EvaluationCache(self.config.cache_path) if self.config.cache_path else None

    @cached_property
    def sandbox(self) -> Sandbox:
        return self._sandbox or default_sandbox(self.config.sandbox)

    @cached_property
    def instance_sets(self) -> list[tuple[InstanceSet, bytes]]:
        specs = [s for s in self.problem.set_specs(self.split) if self.sizes is None or s.size in self.sizes]
        return [(instances, instances.to_npz()) for instances in map(self.problem.make, specs)]

    @cached_property
    def job(self) -> SetJob:
        """What every sandboxed run of this evaluator shares (files, limits)."""
        files = {"harness.py": (RUNNERS_DIR / "harness.py").read_bytes(),
                 "ahd_common.py": (RUNNERS_DIR / "ahd_common.py").read_bytes(),
                 "runner.py": self.problem.runner_source().encode()}
        return SetJob(self.problem, self.sandbox, files, self.config.wall_s, self.config.memory_mb)

    def sibling(self, split: str, wall_s: float, sizes: set[int] | None = None) -> "Evaluator":
        """An evaluator of the same problem on another split (only the sets of ``sizes`` when given), sharing
        the sandbox, the cache and the executor."""
        config = self.config.model_copy(update={"wall_s": wall_s})
        return Evaluator(self.problem, split, config, sandbox=self._sandbox, sizes=sizes, executor=self.executor)

    def evaluate(self, code: str) -> Evaluation:
        """Score ``code``: from the cache when seen before, else in the sandbox."""
        return self.evaluate_many([code])[0]

    def evaluate_many(self, codes: list[str]) -> list[Evaluation]:
        """Score several candidates: cached ones from the cache, the rest in parallel batches; identical codes
        are evaluated once."""
        unique = list(dict.fromkeys(codes))
        keys = {code: EvaluationCache.key(self.problem.name, self.split, code) for code in unique}
        found = {code: Evaluation.from_dict({**hit, "cached": True}) for code in unique
                 if self.cache and (hit := self.cache.get(keys[code])) is not None}
        batches = batched([code for code in unique if code not in found], self.config.batch_size, self.config.workers)
        if batches:
            if self.executor.name == "local":
                _ = self.sandbox, self.instance_sets, self.job  # resolve once, before the worker threads start
            work = [Job(f"{self.problem.name}/{self.split} batch {n + 1}/{len(batches)}", score_batch,
                        (self.problem, self.split, self.config.model_copy(update={"cache_path": None}), self.sizes,
                         batch)) for n, batch in enumerate(batches)]
            place = Place(kept={self._place_key(): self})  # here, this evaluator scores its own batches
            for batch, evaluations in zip(batches, run_all(self.executor, work, place=place,
                                                           width=self.config.workers)):
                found.update(zip(batch, evaluations))
            for code in (code for batch in batches for code in batch):
                self._record(keys[code], found[code])
        return [found[code] for code in codes]

    def _place_key(self) -> str:
        return place_key(self.problem, self.split, self.config.model_copy(update={"cache_path": None}), self.sizes)

    def _record(self, key: str, evaluation: Evaluation) -> None:
        if self.cache:
            self.cache.put(key, evaluation.to_dict())
        emit("ahd.evaluation", problem=self.problem.name, split=self.split, code_hash=evaluation.code_hash,
             ok=evaluation.ok, score=evaluation.score, failure=evaluation.failure, seconds=evaluation.seconds)

    def evaluate_batch(self, codes: list[str]) -> list[Evaluation]:
        """Score a batch of candidates in the sandbox, one sandboxed process per instance set for the whole
        batch; no cache. A candidate that fails on a set is not run on the later ones."""
        digests = [code_hash(code) for code in codes]
        scores: list[dict[str, SetScore]] = [{} for _ in codes]
        failed: dict[int, Evaluation] = {}
        for instances, npz in self.instance_sets:
            alive = [i for i in range(len(codes)) if i not in failed]
            if not alive:
                break
            outcomes = run_set(self.job, [codes[i] for i in alive], [digests[i] for i in alive], instances, npz)
            for i, outcome in zip(alive, outcomes):
                if isinstance(outcome, Evaluation):
                    outcome.seconds += sum(s.seconds for s in scores[i].values())
                    failed[i] = outcome
                else:
                    scores[i][instances.spec.name] = outcome
        return [failed.get(i) or _combined(digests[i], scores[i]) for i in range(len(codes))]


def place_key(problem: Problem, split: str, config: EvaluatorConfig, sizes: set[int] | None) -> str:
    """The name an evaluator for these settings is kept under on a place."""
    return f"ahd.evaluator:{problem.name}:{split}:{config.model_dump_json()}:{sorted(sizes) if sizes else None}"


def score_batch(place: Place, problem: Problem, split: str, config: EvaluatorConfig, sizes: set[int] | None,
                codes: list[str]) -> list[Evaluation]:
    """One batch on ``place``: the driver's own evaluator there, else one kept on this node (its sandbox)."""
    evaluator: Any = place.keep(place_key(problem, split, config, sizes),
                                lambda: Evaluator(problem, split, config, place.sandbox_or_default(), sizes))
    return evaluator.evaluate_batch(codes)


def _combined(digest: str, scores: dict[str, SetScore]) -> Evaluation:
    """The evaluation of a candidate that passed every set: the mean gap over the sets."""
    return Evaluation(digest, True, score=sum(s.gap for s in scores.values()) / len(scores),
                      gaps={name: s.gap for name, s in scores.items()},
                      gap_errors={name: s.se for name, s in scores.items()},
                      objectives={name: s.objectives for name, s in scores.items()},
                      seconds=sum(s.seconds for s in scores.values()))


def batched(codes: list[str], size: int, workers: int) -> list[list[str]]:
    """``codes`` in order, cut into batches of at most ``size`` and spread over at least ``workers`` batches
    when there are enough."""
    if not codes:
        return []
    per = min(size, -(-len(codes) // max(1, workers)))
    return [codes[i:i + per] for i in range(0, len(codes), per)]
