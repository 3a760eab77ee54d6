"""The `bench-repo` agent: localise every instance with one localiser and score it (Acc@k, recall, NDCG);
finished instances are appended to outcomes.jsonl, so a resumed run skips them. The resumable loop is
shared with the ablation benchmark, which runs several localisers side by side."""

from __future__ import annotations

import contextlib
import json
import os
import threading
from functools import partial
from pathlib import Path
from typing import Callable, TypedDict

from benchmarks.executor import make_executor
from benchmarks.report import Report
from benchmarks.repo.demo import write_demo_instances
from benchmarks.repo.harness import (Outcome, RepoBenchConfig, build_report, export_predictions, outcome_from_dict,
                                     outcome_to_dict, run_side_by_side)
from benchmarks.repo.instances import Instance, load_instances, read_ids
from benchmarks.repo.localizer import Localizer, PredictionsFile
from sandboxes.errors import UserError

from agents.rpg.config import BenchRepoConfig
from agents.rpg.fanout import run_fanned
from agents.rpg.localizers import BM25Localizer, RPGLocalizer, RepoGraphs
from agents.runtime.graph import linear_graph, run_graph
from agents.runtime.models.base import ChatModel
from agents.runtime.progress import Progress
from agents.runtime.run import Run

OUTCOMES = "outcomes.jsonl"


class BenchState(TypedDict, total=False):
    evaluated: int


def make_localizer(spec: str, model: ChatModel | None) -> Localizer:
    if spec.startswith("predictions:"):
        return PredictionsFile(spec.split(":", 1)[1])
    graphs = RepoGraphs()
    if spec == "rpg":
        return RPGLocalizer(graphs, model)
    if spec == "bm25":
        return BM25Localizer(graphs)
    raise UserError(f"unknown localizer {spec!r} (use rpg, bm25 or predictions:FILE)")


def instances_path(spec: str, run: Run) -> Path:
    """The instances file of a run: ``spec``, or the demo's (written into the run on first use)."""
    if spec != "demo":
        return Path(spec)
    path = run.artifacts / "demo" / "demo_instances.jsonl"
    return path if path.is_file() else write_demo_instances(run.artifacts / "demo")


def _done(path: Path) -> dict[str, dict]:
    if not path.is_file():
        return {}
    return {row["instance_id"]: row for row in map(json.loads, path.read_text().splitlines()) if row}


def evaluate_resumably(run: Run, instances: list[Instance], localizers: list[Localizer], bench: RepoBenchConfig,
                       title: str, evaluate_all: Callable[..., None] | None = None) -> dict[str, list[Outcome]]:
    """Every instance side by side with every localiser, as a checkpointed graph node; each finished
    instance is appended to outcomes.jsonl, and a resumed run skips those. Returns id → outcomes.
    ``evaluate_all(todo, on_done)``: how the instances left are evaluated (default: here, ``run_side_by_side``)."""
    evaluate_all = evaluate_all or (lambda todo, on_done: run_side_by_side(todo, localizers, bench, on_done=on_done))
    outcomes_path, lock = run.artifacts / OUTCOMES, threading.Lock()

    def evaluate(state: BenchState) -> BenchState:
        done = _done(outcomes_path)
        todo = [i for i in instances if i.instance_id not in done]
        with Progress(title, total=len(instances)) as progress, outcomes_path.open("a") as out:
            def record(outcomes: list[Outcome]) -> None:
                with lock:
                    out.write(json.dumps({"instance_id": outcomes[0].instance.instance_id,
                                          "outcomes": [outcome_to_dict(o) for o in outcomes]}) + "\n")
                    out.flush()
                    done[outcomes[0].instance.instance_id] = {}
                    if len(done) % max(1, len(instances) // 20) == 0 or len(done) == len(instances):
                        progress.update(step=len(done), cost=run.totals.cost_usd)
            evaluate_all(todo, record)
        return {"evaluated": len(instances)}

    run_graph(linear_graph(BenchState, [("evaluate", evaluate)]), run, {"evaluated": 0})
    records = _done(outcomes_path)
    return {i.instance_id: [outcome_from_dict(d, i) for d in records[i.instance_id]["outcomes"]]
            for i in instances if i.instance_id in records}


def check_executor(spec: str | None, model: ChatModel | None) -> str:
    """The executor ``spec`` names; one clear line when a model would have to leave the driver (its calls stay
    here, so only offline localisers fan out)."""
    from benchmarks.executor import check_spec

    chosen = check_spec(spec)
    if model is not None and chosen != "local":
        raise UserError("--executor: a localiser with a model runs in the driver (its calls stay here); "
                        "fan out offline localisers only (rpg without --model, bm25, predictions:FILE)")
    return chosen


def execute(run: Run, model: ChatModel | None) -> Report:
    """Evaluate every instance not yet finished in this run, then report them all."""
    config = BenchRepoConfig(**run.config)
    exclude = read_ids(config.exclude) if config.exclude else set()
    instances = load_instances(instances_path(config.instances, run), exclude)[:config.limit]
    localizer = make_localizer(config.localizer, model)
    check_executor(config.executor, model)
    with contextlib.closing(make_executor(config.executor, os.environ.get("AGENT_SANDBOX"))) as executor:
        # on a cluster: one job per repository chain, each node localising with its own localiser
        fanned = partial(run_fanned, executor, config.localizer, config.bench) if executor.name != "local" else None
        finished = evaluate_resumably(run, instances, [localizer], config.bench, "bench repo", fanned)
    outcomes = [finished[i.instance_id][0] for i in instances if i.instance_id in finished]
    export_predictions(outcomes, run.artifacts / "predictions.jsonl", localizer.name)
    if config.export:
        export_predictions(outcomes, config.export, localizer.name)
    report = build_report(outcomes, tuple(config.bench.ks), localizer)
    report.summary.update(run.totals.as_dict())
    return report
