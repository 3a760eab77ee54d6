"""Evaluation throughput of the resolution harness: the shipped benchmark's gold patches evaluated with each
worker count in turn, in one process, over environments built beforehand (so every count finds them ready
and the figures compare the evaluations alone)."""

from __future__ import annotations

import time
from pathlib import Path

from benchmarks.report import Report
from benchmarks.resolve.generated import build_generated
from benchmarks.resolve.harness import ResolveConfig, evaluate_all, specs_of
from benchmarks.resolve.envs import EnvCache
from benchmarks.resolve.instances import baseline_predictions, load_instances


def measure_throughput(folder: Path, worker_counts: list[int], sandbox: str | None, env_dir: str) -> Report:
    """One row per worker count: wall time, instances per minute, resolved; the summary holds the ratio of the
    last count's rate to the first's."""
    generated = build_generated(folder / "generated")
    instances = load_instances(generated.instances)
    base = ResolveConfig(mirrors=str(generated.mirrors), specs=str(generated.specs), sandbox=sandbox,
                         env_dir=env_dir, cache_dir=str(folder / "repos"))
    envs, specs = EnvCache(env_dir), specs_of(instances, base)
    for instance in instances:
        envs.get(instance.repo, instance.version, specs[instance.instance_id])
    predictions = baseline_predictions("gold", instances)
    rows = []
    for workers in worker_counts:
        config = base.model_copy(update={"workers": workers})
        started = time.perf_counter()
        outcomes = evaluate_all(instances, predictions, config, folder / f"logs-{workers}")
        wall_s = time.perf_counter() - started
        rows.append({"workers": workers, "instances": len(outcomes), "wall_s": round(wall_s, 2),
                     "instances_per_min": round(60 * len(outcomes) / wall_s, 2),
                     "resolved": sum(o.status == "resolved" for o in outcomes.values())})
    ratio = rows[-1]["instances_per_min"] / rows[0]["instances_per_min"]
    summary = {"benchmark": "generated (gold patches)", "worker_counts": worker_counts,
               f"speedup_{worker_counts[-1]}_vs_{worker_counts[0]}": round(ratio, 2)}
    return Report(summary=summary, rows=rows, title="resolution harness throughput")
