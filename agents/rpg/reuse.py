"""Graph reuse across instances, measured side by side: the offline localiser with one graph per
repository evolved from commit to commit, against the same localiser building each commit's graph
from scratch, on the same instances in the same run. Reports wall and CPU seconds per instance of
each, their ratios, whether every answer is identical, and how many Python files each move changes
(along the harness's order, and in total along commit-time order for comparison)."""

from __future__ import annotations

import statistics
import time
from typing import Any

from benchmarks.repo.checkout import RepoCache, Snapshot
from benchmarks.repo.harness import Outcome, RepoBenchConfig, run_side_by_side, schedule
from benchmarks.repo.instances import Instance
from benchmarks.repo.localizer import Prediction
from benchmarks.repo.order import chain_steps, step_size

from agents.rpg.localizers import RepoGraphs, RPGLocalizer


def same_answer(first: Outcome, second: Outcome) -> bool:
    """Identical ranked files, modules, functions and locations (and the same skip, if any)."""
    a, b = first.prediction, second.prediction
    return (first.skipped, a.files, a.modules, a.functions, a.locations) == \
           (second.skipped, b.files, b.modules, b.functions, b.locations)


class CPUTimed:
    """A localiser whose CPU seconds (user + system of this process) are kept per instance id; exact while
    the process localises one instance at a time, as this benchmark does (one worker)."""

    def __init__(self, localizer: RPGLocalizer):
        self.localizer, self.name, self.policy = localizer, localizer.name, localizer.policy
        self.needs_checkout = localizer.needs_checkout
        self.cpu_seconds: dict[str, float] = {}

    def localize(self, instance: Instance, checkout: Snapshot | None) -> Prediction:
        started = time.process_time()
        try:
            return self.localizer.localize(instance, checkout)
        finally:
            self.cpu_seconds[instance.instance_id] = time.process_time() - started


def after_first(unit: str, evolved: list[float], rebuilt: list[float]) -> dict[str, float]:
    """Mean and max of the evolved graph after each repository's first instance, the rebuilt mean, and
    rebuilt over evolved; ``unit`` is ``s`` (wall) or ``cpu_s``."""
    ratio = "after_first.rebuilt_over_evolved" + ("" if unit == "s" else f"_{unit}")
    return {f"after_first.evolved_mean_{unit}": round(statistics.mean(evolved), 3),
            f"after_first.evolved_max_{unit}": round(max(evolved), 3),
            f"after_first.rebuilt_mean_{unit}": round(statistics.mean(rebuilt), 3),
            ratio: round(sum(rebuilt) / sum(evolved), 2)}


def moves(chains: list[list[Instance]], cache: RepoCache) -> tuple[dict[str, int], dict[str, int]]:
    """Python files changed into each instance from the one before it in its chain (the harness's order;
    0 on the same commit), and the totals over each order: the harness's and commit time's."""
    into, totals = {}, {"harness_order": 0, "commit_time_order": 0}
    for chain in chains:
        repo = chain[0].repo
        if cache.origin(repo) is None:
            continue
        trees = cache.python_trees(repo, [i.base_commit for i in chain])
        present = [i for i in chain if i.base_commit in trees]
        for before, after in zip(present, present[1:]):
            into[after.instance_id] = step_size(trees[before.base_commit], trees[after.base_commit])
        times = cache.commit_times(repo, list(trees))
        totals["harness_order"] += sum(into.get(i.instance_id, 0) for i in present)
        totals["commit_time_order"] += sum(chain_steps(trees, sorted(trees, key=lambda c: (times.get(c, -1), c))))
    return into, totals


def measure_reuse(instances: list[Instance], bench: RepoBenchConfig) -> tuple[dict[str, Any], list[dict]]:
    """Summary and per-instance rows, in the harness's order (per repository, a chain of nearby commits)."""
    cache = RepoCache(bench.cache_dir, bench.mirrors, bench.allow_clone)
    chains = schedule(instances, cache)
    ordered = [instance for chain in chains for instance in chain]
    changed, totals = moves(chains, cache)
    evolved = CPUTimed(RPGLocalizer(RepoGraphs(reuse=True), None, name="evolved"))
    rebuilt = CPUTimed(RPGLocalizer(RepoGraphs(reuse=False), None, name="rebuilt"))
    rows, first_seen = [], set()
    later: dict[str, list[float]] = {"evolved_s": [], "rebuilt_s": [], "evolved_cpu_s": [], "rebuilt_cpu_s": []}
    for mine, theirs in run_side_by_side(ordered, [evolved, rebuilt], bench):
        repo, instance_id = mine.instance.repo, mine.instance.instance_id
        row = {"instance_id": instance_id, "repo": repo, "commit": mine.instance.base_commit[:12],
               "evolved_s": round(mine.seconds, 3), "rebuilt_s": round(theirs.seconds, 3),
               "evolved_cpu_s": round(evolved.cpu_seconds.get(instance_id, 0.0), 3),
               "rebuilt_cpu_s": round(rebuilt.cpu_seconds.get(instance_id, 0.0), 3),
               "changed_py_files": changed.get(instance_id), "identical": same_answer(mine, theirs),
               "skipped": mine.skipped}
        rows.append(row)
        if repo in first_seen and not mine.skipped:
            for key, values in later.items():
                values.append(row[key])
        first_seen.add(repo)
    summary: dict[str, Any] = {"instances": len(rows), "repositories": sorted(first_seen),
                               "all_identical": all(r["identical"] for r in rows),
                               **{f"changed_py_files.{order}_total": total for order, total in totals.items()},
                               "first_instance_per_repository_s": {r["repo"]: r["evolved_s"] for r in reversed(rows)},
                               "first_instance_per_repository_cpu_s": {r["repo"]: r["evolved_cpu_s"]
                                                                       for r in reversed(rows)}}
    if later["evolved_s"]:
        summary.update(after_first("s", later["evolved_s"], later["rebuilt_s"]))
        summary.update(after_first("cpu_s", later["evolved_cpu_s"], later["rebuilt_cpu_s"]))
        steps = [r["changed_py_files"] for r in rows if r["changed_py_files"] is not None and not r["skipped"]]
        summary["after_first.mean_changed_py_files"] = round(statistics.mean(steps), 1) if steps else None
    return summary, rows
