"""Run a localiser over SWE-bench instances and score it at file, module and function level."""

from __future__ import annotations

import contextvars
import json
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable

from pydantic import Field

from sandboxes.errors import UserError
from sandboxes.settings import Config
from sandboxes.telemetry import emit

from benchmarks.report import Report
from benchmarks.repo.checkout import RepoCache
from benchmarks.repo.gcpause import collector_paused
from benchmarks.repo.gold import LEVELS, Gold, gold_for
from benchmarks.repo.instances import Instance
from benchmarks.repo.localizer import Localizer, Prediction
from benchmarks.repo.metrics import DEFAULT_KS, METRICS, mean_percent, score
from benchmarks.repo.order import nearest_chain


ROW_KS = (1, 5)
"""The cut-offs shown in per-instance rows (the full scores are kept in the outcomes file)."""


class RepoBenchConfig(Config):
    """How the repository-localisation benchmark runs."""

    ks: list[int] = Field(default_factory=lambda: list(DEFAULT_KS))
    """The cut-offs k for Acc@k, recall@k and NDCG@k."""
    workers: int = 1
    """Repositories localised in parallel (threads); the instances of one repository run in the harness's order
    (a chain of nearby commits, see :func:`schedule`)."""
    cache_dir: str = ".cache/repos"
    """Where bare clones and per-commit worktrees are kept."""
    mirrors: str | None = None
    """A folder of local repositories named ``owner__name`` or ``name``."""
    allow_clone: bool = False
    """Clone ``https://github.com/<repo>`` when no local copy exists."""


@dataclass
class Outcome:
    """One instance: its gold, the prediction, per-level scores, or why it was skipped."""

    instance: Instance
    gold: Gold | None = None
    prediction: Prediction = field(default_factory=Prediction)
    scores: dict[str, dict[str, float] | None] = field(default_factory=dict)
    skipped: str = ""
    seconds: float = 0.0


def evaluate_side_by_side(instance: Instance, localizers: list[Localizer], cache: RepoCache,
                          ks: tuple[int, ...]) -> list[Outcome]:
    """One outcome per localiser for the same instance and gold (each timed on its own, plus the shared
    gold and snapshot look-up); bad input is reported as skipped."""
    started = time.perf_counter()
    gold, snapshot, failure = None, None, ""
    try:
        with collector_paused():  # parsing the gold files beside a localiser's live graphs (see gcpause)
            reader = cache.reader(instance.repo, instance.base_commit) if cache.origin(instance.repo) else None
            gold = gold_for(instance.patch, reader, instance.gt_file_changes)
            if any(localizer.needs_checkout for localizer in localizers):
                snapshot = cache.snapshot(instance.repo, instance.base_commit)
    except UserError as error:
        failure = str(error)
    shared = time.perf_counter() - started
    outcomes = []
    for localizer in localizers:
        began = time.perf_counter()
        outcome = Outcome(instance, gold, skipped=failure)
        if not failure:
            try:
                outcome.prediction = localizer.localize(instance, snapshot if localizer.needs_checkout else None)
            except UserError as error:
                outcome.skipped = str(error)
        if outcome.gold and not outcome.skipped:
            outcome.scores = {lvl: score(outcome.prediction.level(lvl), outcome.gold.level(lvl), ks) for lvl in LEVELS}
        outcome.seconds = shared + time.perf_counter() - began
        emit("bench.instance", instance_id=instance.instance_id, localizer=localizer.name, skipped=outcome.skipped,
             file_acc_at_1=(outcome.scores.get("file") or {}).get("acc@1"))
        outcomes.append(outcome)
    return outcomes


def schedule(instances: list[Instance], cache: RepoCache) -> list[list[Instance]]:
    """The harness's order: one chain per repository, its instances along a short path through their base
    commits (:func:`benchmarks.repo.order.nearest_chain`: few Python files change from one to the next).

    A localiser that keeps one graph per repository then moves it by small diffs. Instances on one
    commit run together (by id); commits that cannot be found come first (they are skipped when evaluated).
    """
    chains: dict[str, list[Instance]] = {}
    for instance in instances:
        chains.setdefault(instance.repo, []).append(instance)
    ordered = []
    for repo, chain in chains.items():
        commits = [i.base_commit for i in chain]
        known = cache.origin(repo) is not None
        times = cache.commit_times(repo, commits) if known else {}
        trees = cache.python_trees(repo, commits) if known else {}
        by_time = sorted(set(commits), key=lambda commit: (times.get(commit, -1), commit))
        visit = [c for c in by_time if c not in trees] + nearest_chain(trees, [c for c in by_time if c in trees])
        position = {commit: index for index, commit in enumerate(visit)}
        ordered.append(sorted(chain, key=lambda i: (position[i.base_commit], i.instance_id)))
    return ordered


def run_benchmark(instances: list[Instance], localizer: Localizer, config: RepoBenchConfig,
                  on_done: Callable[[Outcome], None] | None = None) -> list[Outcome]:
    """Evaluate every instance, one repository chain per worker (``config.workers`` at a time).

    Within a repository the instances run in the order of :func:`schedule`; the outcomes come back in input order.
    """
    return [o[0] for o in run_side_by_side(instances, [localizer], config,
                                           (lambda outcomes: on_done(outcomes[0])) if on_done else None)]


def run_side_by_side(instances: list[Instance], localizers: list[Localizer], config: RepoBenchConfig,
                     on_done: Callable[[list[Outcome]], None] | None = None) -> list[list[Outcome]]:
    """Like :func:`run_benchmark` with several localisers: per instance, one outcome per localiser."""
    cache = RepoCache(config.cache_dir, config.mirrors, config.allow_clone)
    ks = tuple(config.ks)

    def chain(instances_of_repo: list[Instance]) -> list[list[Outcome]]:
        done = []
        for instance in instances_of_repo:
            done.append(evaluate_side_by_side(instance, localizers, cache, ks))
            if on_done:
                on_done(done[-1])
        return done

    chains = schedule(instances, cache)
    if config.workers <= 1 or len(chains) <= 1:
        finished = [o for c in chains for o in chain(c)]
    else:
        contexts = [contextvars.copy_context() for _ in chains]  # events from workers reach the run
        with ThreadPoolExecutor(max_workers=config.workers) as pool:
            finished = [o for done in pool.map(lambda context, c: context.run(chain, c), contexts, chains) for o in done]
    by_instance = {id(outcomes[0].instance): outcomes for outcomes in finished}
    return [by_instance[id(i)] for i in instances]


def summarise(outcomes: list[Outcome], ks: tuple[int, ...], localizer: Localizer) -> dict[str, Any]:
    """Per level, metric and k, the mean over scored instances, in percent."""
    scored = [o for o in outcomes if not o.skipped]
    summary: dict[str, Any] = {"localizer": localizer.name, "policy": localizer.policy,
                               "instances": len(outcomes), "scored": len(scored),
                               "skipped": len(outcomes) - len(scored),
                               "definitions": "acc = LocAgent's (every gold item, capped at k, in the top k); "
                                              "acc_any = at least one gold item in the top k; percentages"}
    for level in LEVELS:
        per_level = [o.scores[level] for o in scored if o.scores.get(level)]
        summary[f"{level}.n"] = len(per_level)
        for metric in METRICS:
            for k in ks:
                summary[f"{level}.{metric}@{k}"] = mean_percent([s[f"{metric}@{k}"] for s in per_level])
    summary["cost_usd"] = round(sum(o.prediction.cost_usd for o in outcomes), 6)
    summary["tokens"] = sum(o.prediction.tokens for o in outcomes)
    return summary


def row(outcome: Outcome, ks: tuple[int, ...]) -> dict[str, Any]:
    """One per-instance table row."""
    prediction, gold = outcome.prediction, outcome.gold
    data: dict[str, Any] = {"instance_id": outcome.instance.instance_id,
                            "status": f"skipped: {outcome.skipped}" if outcome.skipped else "scored",
                            "gold_files": ", ".join(gold.files) if gold else "",
                            "top_files": ", ".join(prediction.files[:3])}
    for level in LEVELS:
        scores = outcome.scores.get(level) or {}
        for k in [k for k in ks if k in ROW_KS]:
            data[f"{level}.acc@{k}"] = scores.get(f"acc@{k}")
    data["seconds"] = round(outcome.seconds, 3)
    if prediction.note:
        data["note"] = prediction.note
    return data


def build_report(outcomes: list[Outcome], ks: tuple[int, ...], localizer: Localizer) -> Report:
    return Report(summary=summarise(outcomes, ks, localizer), rows=[row(o, ks) for o in outcomes],
                  title=f"Repository localisation — {localizer.name}")


def export_predictions(outcomes: list[Outcome], path: str | Path, model_name: str) -> Path:
    """SWE-bench's predictions JSONL, with LocAgent's ``found_*`` keys so the file reads back as
    ``--localizer predictions:FILE``."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w") as out:
        for outcome in outcomes:
            p = outcome.prediction
            out.write(json.dumps({"instance_id": outcome.instance.instance_id, "model_name_or_path": model_name,
                                  "model_patch": "", "found_files": p.files, "found_modules": p.modules,
                                  "found_entities": p.functions, "locations": p.locations}) + "\n")
    return path


def outcome_to_dict(outcome: Outcome) -> dict[str, Any]:
    """A JSON-able record of one outcome (to keep finished instances across a resume)."""
    return {"instance_id": outcome.instance.instance_id, "gold": asdict(outcome.gold) if outcome.gold else None,
            "prediction": asdict(outcome.prediction), "scores": outcome.scores, "skipped": outcome.skipped,
            "seconds": outcome.seconds}


def outcome_from_dict(data: dict[str, Any], instance: Instance) -> Outcome:
    return Outcome(instance, Gold(**data["gold"]) if data["gold"] else None, Prediction(**data["prediction"]),
                   data["scores"], data["skipped"], data["seconds"])
