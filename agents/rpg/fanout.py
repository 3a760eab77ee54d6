"""Repository-localisation instances through the Executor seam (``agent bench repo --executor ray``).

One job per repository chain (a repository's instances in the harness's order, a chain of nearby commits): the
node localises and scores the chain with a localiser of its own, kept warm on that node between jobs (its
graphs evolve along the chain). Only offline localisers fan out: the model calls, the outcomes file and the
report stay in the driver, which records each chain's outcomes as its job returns.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from benchmarks.executor import Executor, Job, Place, run_all
from benchmarks.repo.checkout import RepoCache
from benchmarks.repo.harness import Outcome, RepoBenchConfig, evaluate_side_by_side, schedule
from benchmarks.repo.instances import Instance


def localise_chain(place: Place, spec: str, chain: list[Instance], bench: RepoBenchConfig) -> list[Outcome]:
    """The outcomes of one repository's instances, in order, localised by ``spec`` (offline) on ``place``."""
    from agents.rpg.bench import make_localizer  # (bench imports this module)

    localizer = place.keep(f"rpg.localizer:{spec}", lambda: make_localizer(spec, None))
    cache = place.keep(f"repo.cache:{bench.model_dump_json()}",
                       lambda: RepoCache(bench.cache_dir, bench.mirrors, bench.allow_clone))
    return [evaluate_side_by_side(instance, [localizer], cache, tuple(bench.ks))[0] for instance in chain]


def run_fanned(executor: Executor, spec: str, bench: RepoBenchConfig, instances: list[Instance],
               on_done: Callable[[list[Outcome]], None]) -> None:
    """Every instance of ``instances`` through ``executor``, one job per repository chain (``bench.workers``
    in flight); ``on_done([outcome])`` in the driver for each instance as its chain comes back."""
    anywhere, spec = absolute(bench), absolute_spec(spec)
    chains = schedule(instances, RepoCache(anywhere.cache_dir, anywhere.mirrors, anywhere.allow_clone))
    jobs = [Job(f"bench repo {chain[0].repo} ({len(chain)} instances)", localise_chain, (spec, chain, anywhere))
            for chain in chains]

    def record(done: int, index: int, outcomes: list[Outcome]) -> None:
        for outcome in outcomes:
            on_done([outcome])

    run_all(executor, jobs, width=max(1, bench.workers), on_result=record)


def absolute_spec(spec: str) -> str:
    """``predictions:FILE`` with FILE made absolute; other localiser names as they are."""
    kind, _, path = spec.partition(":")
    return f"{kind}:{Path(path).resolve()}" if kind == "predictions" and path else spec


def absolute(bench: RepoBenchConfig) -> RepoBenchConfig:
    """``bench`` with its folders made absolute (a Ray worker does not start in the driver's directory)."""
    return bench.model_copy(update={"cache_dir": str(Path(bench.cache_dir).resolve()),
                                    "mirrors": str(Path(bench.mirrors).resolve()) if bench.mirrors else None})
