"""The `bench-resolve` agent: evaluate predictions (a file, a baseline, the repair agent's or an external
command's) on SWE-bench instances; finished instances are appended to outcomes.jsonl, so a resumed run
skips them. The run's artifacts hold SWE-bench's layout: ``logs/run_evaluation/<run id>/<model>/<instance>/``
per instance, ``predictions.jsonl`` and the run report ``<model>.<run id>.json``."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import TypedDict

from benchmarks.report import Report
from benchmarks.resolve.evaluate import Outcome
from benchmarks.resolve.generated import build_generated
from benchmarks.resolve.harness import EVAL_LOGS, ResolveConfig, evaluate_all
from benchmarks.resolve.instances import (BASELINES, Instance, Prediction, baseline_predictions, load_instances,
                                          load_predictions, write_predictions)
from benchmarks.resolve.report import build_report, swebench_report
from sandboxes.errors import UserError

from agents.repair.config import GENERATED, BenchResolveConfig
from agents.runtime.graph import linear_graph, run_graph
from agents.runtime.models.base import ChatModel
from agents.runtime.progress import Progress
from agents.runtime.run import Run

OUTCOMES = "outcomes.jsonl"


class BenchState(TypedDict, total=False):
    evaluated: int


def check(config: BenchResolveConfig, model: ChatModel | None) -> None:
    """Input that would fail the run at once (before its directory is made): one source of predictions,
    and a model for the repair agent."""
    sources = [s for s in (config.predictions, config.agent, config.agent_cmd) if s]
    if len(sources) != 1:
        raise UserError("give exactly one of --predictions FILE|gold|empty, --agent repair or --agent-cmd CMD")
    if config.agent == "repair" and model is None:
        from agents.repair.agent import NO_OFFLINE_POLICY

        raise UserError(f"{NO_OFFLINE_POLICY}, or evaluate --predictions FILE|gold|empty")
    if config.predictions and config.predictions not in BASELINES and not Path(config.predictions).exists():
        raise UserError(f"no such predictions file: {config.predictions}")
    if config.instances != GENERATED and not Path(config.instances).exists():
        raise UserError(f"no such instances file: {config.instances}")
    if config.backend == "swebench":
        from agents.repair.swebench_backend import check_reachable

        check_reachable()


def prepare(config: BenchResolveConfig, run: Run) -> tuple[list[Instance], ResolveConfig]:
    """The instances to evaluate and the harness settings (the shipped benchmark is written into the run
    on first use, with its repositories as mirrors and its specs)."""
    harness, path = config.harness, Path(config.instances)
    if config.instances == GENERATED:
        folder = run.artifacts / "generated"
        path = folder / "instances.jsonl"
        if not path.is_file():
            build_generated(folder)
        harness = harness.model_copy(update={"mirrors": harness.mirrors or str(folder),
                                             "specs": harness.specs or str(folder / "specs.json")})
    wanted = set(config.ids) or None
    instances = load_instances(path, wanted)[:config.limit]
    if wanted and len(instances) < len(wanted) and config.limit is None:
        missing = sorted(wanted - {i.instance_id for i in instances})
        raise UserError(f"no such instance in {path}: {', '.join(missing)}")
    return instances, harness


def make_predictions(config: BenchResolveConfig, instances: list[Instance], run: Run, model: ChatModel | None,
                     harness: ResolveConfig) -> dict[str, Prediction]:
    """The predictions to evaluate, saved as ``predictions.jsonl`` in the run (a resumed run reads them back,
    so an agent never repairs an instance twice)."""
    saved = run.artifacts / "predictions.jsonl"
    if saved.is_file():
        return load_predictions(saved)
    if config.predictions in BASELINES:
        predictions = baseline_predictions(config.predictions, instances)
    elif config.predictions:
        given = load_predictions(config.predictions)
        predictions = {i.instance_id: given[i.instance_id] for i in instances if i.instance_id in given}
    else:
        from agents.repair.produce import produce_predictions

        predictions = produce_predictions(config, instances, run, model, harness)
    write_predictions(list(predictions.values()), saved)
    return predictions


def _done(path: Path) -> dict[str, Outcome]:
    if not path.is_file():
        return {}
    return {o.instance_id: o for o in (Outcome.from_dict(json.loads(line)) for line in path.read_text().splitlines()
                                       if line.strip())}


def evaluate_resumably(run: Run, instances: list[Instance], predictions: dict[str, Prediction],
                       harness: ResolveConfig, logs: Path) -> dict[str, Outcome]:
    """Evaluate, as a checkpointed graph node, every instance with a prediction not yet in outcomes.jsonl."""
    path, lock = run.artifacts / OUTCOMES, threading.Lock()

    def evaluate(state: BenchState) -> BenchState:
        done = _done(path)
        todo = [i for i in instances if i.instance_id in predictions and i.instance_id not in done]
        with Progress("bench resolve", total=len(todo)) as progress, path.open("a") as out:
            def record(outcome: Outcome) -> None:
                with lock:
                    out.write(json.dumps(outcome.to_dict()) + "\n")
                    out.flush()
                    done[outcome.instance_id] = outcome
                    progress.update(step=len(done))
            evaluate_all(todo, predictions, harness, logs, on_done=record)
        return {"evaluated": len(done)}

    run_graph(linear_graph(BenchState, [("evaluate", evaluate)]), run, {"evaluated": 0})
    return _done(path)


def write_run_report(run_report: dict, predictions: dict[str, Prediction], run: Run) -> Path:
    """SWE-bench's run report file, named as its harness names it (``<model>.<run id>.json``)."""
    model = next(iter(predictions.values())).model_name_or_path if predictions else "none"
    path = run.artifacts / f"{model.replace('/', '__')}.{run.id}.json"
    path.write_text(json.dumps(run_report, indent=4) + "\n")
    return path


def execute(run: Run, model: ChatModel | None) -> Report:
    """Make (or read) the predictions, evaluate every instance not yet finished in this run, report them all."""
    config = BenchResolveConfig(**run.config)
    check(config, model)
    instances, harness = prepare(config, run)
    predictions = make_predictions(config, instances, run, model, harness)
    if config.backend == "swebench":
        from agents.repair.swebench_backend import run_swebench_harness

        return run_swebench_harness(instances, run, harness)
    logs = run.artifacts / EVAL_LOGS / run.id
    started = time.perf_counter()
    outcomes = evaluate_resumably(run, instances, predictions, harness, logs)
    wall_s = time.perf_counter() - started
    run_report = swebench_report(instances, predictions, outcomes, logs)
    report_file = write_run_report(run_report, predictions, run)
    extra = {"predictions": config.predictions or config.agent or "agent-cmd", "backend": config.backend,
             "workers": harness.workers, "swebench_report": str(report_file)}
    report = build_report(instances, predictions, outcomes, run_report, wall_s, extra)
    report.summary.update(run.totals.as_dict())
    return report
