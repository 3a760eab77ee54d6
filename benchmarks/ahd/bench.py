"""Benchmarks of the AHD suite: the classic baselines' test gaps and the evaluator's speed."""

from __future__ import annotations

import time

from benchmarks.ahd.evaluation import Evaluation
from benchmarks.ahd.evaluator import Evaluator
from benchmarks.ahd.problem import Problem
from benchmarks.ahd.problems.bpp_online import BinPackingOnline
from benchmarks.ahd.published import published
from benchmarks.report import Report


def result_rows(problem: Problem, method: str, evaluation: Evaluation, evaluator: Evaluator) -> list[dict]:
    """One row per set: method, size (and capacity), gap_percent, its standard error, published values."""
    rows = []
    for instances, _ in evaluator.instance_sets:
        spec = instances.spec
        if spec.name not in evaluation.gaps:
            continue
        fields = problem.row_fields(spec)
        rows.append({"method": method, **fields, "instances": spec.count,
                     "gap_percent": round(evaluation.gaps[spec.name], 3),
                     "se_percent": round(evaluation.gap_errors.get(spec.name, float("nan")), 3),
                     "published": published(problem.name, method, spec.size, fields.get("capacity"))
                     if spec.split == "test" else ""})
    return rows


def baseline_report(problem: Problem, evaluator: Evaluator) -> Report:
    """Evaluate every classic baseline of ``problem`` on its test sets."""
    rows, failures = [], []
    for method, code in problem.baselines.items():
        evaluation = evaluator.evaluate(code)
        if not evaluation.ok:
            failures.append(f"{method}: {evaluation.summary()}")
        rows += result_rows(problem, method, evaluation, evaluator)
    summary = {"problem": problem.name, "split": evaluator.split, "baselines": ", ".join(problem.baselines),
               "reference": getattr(problem, "reference_method", "L1 bound ceil(sum/capacity)")}
    if failures:
        summary["failures"] = "; ".join(failures)
    return Report(summary=summary, rows=rows, title=f"AHD baselines: {problem.name}")


def speed_evaluator(sandbox=None) -> Evaluator:
    """An uncached evaluator over the two 5k-item bin-packing test sets (capacity 100 and 500)."""
    return Evaluator(BinPackingOnline(), "test", sandbox=sandbox, sizes={5000})


def speed_report(evaluator: Evaluator, repeats: int = 3) -> Report:
    """Time best fit on the 5k-item bin-packing test sets: compute inside the sandbox vs the whole run."""
    problem = evaluator.problem
    rows = []
    for repeat in range(repeats):
        start = time.perf_counter()
        evaluation = evaluator.evaluate_batch([problem.baselines["best_fit"]])[0]
        wall = time.perf_counter() - start
        per_set = evaluation.seconds / len(evaluator.instance_sets)
        rows.append({"repeat": repeat + 1, "sets": len(evaluator.instance_sets), "items_per_set": 5 * 5000,
                     "compute_s_per_set": round(per_set, 4), "wall_s_per_set": round(wall / len(evaluator.instance_sets), 4),
                     "startup_overhead_s_per_set": round((wall - evaluation.seconds) / len(evaluator.instance_sets), 4),
                     "compute_share": round(evaluation.seconds / wall, 3)})
    best = min(row["compute_s_per_set"] for row in rows)
    summary = {"heuristic": "best_fit", "test_set": "Weibull 5k (5 instances x 5000 items), capacity 100 and 500",
               "backend": getattr(evaluator.sandbox, "name", "?"), "best_compute_s_per_set": best,
               "under_one_second": best < 1.0}
    return Report(summary=summary, rows=rows, title="AHD evaluator speed: bin packing 5k")
