"""Graph reuse across instances, measured side by side: the offline localiser with one graph per
repository evolved from commit to commit, against the same localiser building each commit's graph
from scratch, on the same instances in the same run. Reports seconds per instance of each, their
ratio, and whether every answer is identical."""

from __future__ import annotations

import statistics
from typing import Any

from benchmarks.repo.checkout import RepoCache
from benchmarks.repo.harness import Outcome, RepoBenchConfig, run_side_by_side, schedule
from benchmarks.repo.instances import Instance

from agents.rpg.localizers import RepoGraphs, RPGLocalizer


def same_answer(first: Outcome, second: Outcome) -> bool:
    """Identical ranked files, modules, functions and locations (and the same skip, if any)."""
    a, b = first.prediction, second.prediction
    return (first.skipped, a.files, a.modules, a.functions, a.locations) == \
           (second.skipped, b.files, b.modules, b.functions, b.locations)


def measure_reuse(instances: list[Instance], bench: RepoBenchConfig) -> tuple[dict[str, Any], list[dict]]:
    """Summary and per-instance rows, in the harness's order (per repository, by commit time)."""
    cache = RepoCache(bench.cache_dir, bench.mirrors, bench.allow_clone)
    ordered = [instance for chain in schedule(instances, cache) for instance in chain]
    evolved = RPGLocalizer(RepoGraphs(reuse=True), None, name="evolved")
    rebuilt = RPGLocalizer(RepoGraphs(reuse=False), None, name="rebuilt")
    rows, later, first_seen = [], {"evolved": [], "rebuilt": []}, set()
    for mine, theirs in run_side_by_side(ordered, [evolved, rebuilt], bench):
        repo = mine.instance.repo
        rows.append({"instance_id": mine.instance.instance_id, "repo": repo, "commit": mine.instance.base_commit[:12],
                     "evolved_s": round(mine.seconds, 3), "rebuilt_s": round(theirs.seconds, 3),
                     "identical": same_answer(mine, theirs), "skipped": mine.skipped})
        if repo in first_seen and not mine.skipped:
            later["evolved"].append(mine.seconds)
            later["rebuilt"].append(theirs.seconds)
        first_seen.add(repo)
    summary: dict[str, Any] = {"instances": len(rows), "repositories": sorted(first_seen),
                               "all_identical": all(r["identical"] for r in rows),
                               "first_instance_per_repository_s": {r["repo"]: r["evolved_s"] for r in reversed(rows)}}
    if later["evolved"]:
        summary.update({"after_first.evolved_mean_s": round(statistics.mean(later["evolved"]), 3),
                        "after_first.evolved_max_s": round(max(later["evolved"]), 3),
                        "after_first.rebuilt_mean_s": round(statistics.mean(later["rebuilt"]), 3),
                        "after_first.rebuilt_over_evolved": round(sum(later["rebuilt"]) / sum(later["evolved"]), 2)})
    return summary, rows
