"""What the verifier itself costs: solutions per minute with the judge's checks beside the first edition's,
measured in one run, and the precision check's margins on a solution set.

:func:`measure_cost` evaluates every solution twice through the same persistent runners: once with
``timing_checks="every_call"`` (fresh inputs and a checked output for every timed call, precision check,
tripwire) and once with ``"legacy_sampled"`` (two fixed input sets, three sampled re-checks, neither of
the other two), alternating which goes first so that drift on a shared machine hits both alike. The
extensions are built and the servers started before anything is timed. A mode's rate is the number of
solutions over the summed wall time of its evaluations.
"""

from __future__ import annotations

import statistics
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Sequence

from benchmarks.kernels.suite import Pairing
from benchmarks.kernels.verifier.harness import EvalConfig, KernelResult, evaluate
from benchmarks.kernels.verifier.prebuild import predicted_specs
from benchmarks.kernels.verifier.runner.persistent import VerifierPool
from benchmarks.report import Report
from sandboxes.base import Sandbox
from sandboxes.targets.base import Target

MODES = {"current": "every_call", "previous": "legacy_sampled"}
"""Row name -> ``EvalConfig.timing_checks``."""
TARGET_RATIO = 1.5
"""The issue's limit on the new checks' cost, as a multiple of the previous checks' cost."""


def _prebuild(pairs: Sequence[Pairing], target: Target, sandbox: Sandbox) -> None:
    """Build every extension the sources evidently need, so that no timed evaluation pays for a build."""
    for pair in pairs:
        for spec, _certain in predicted_specs(pair.solution.read_text()):
            target.build(spec, sandbox)


def _mode_row(name: str, results: list[KernelResult]) -> dict[str, Any]:
    seconds = sum(r.seconds for r in results)
    checked = [r.evidence.get("checked_outputs", 0) for r in results]
    row: dict[str, Any] = {"checks": name, "timing_checks": MODES[name], "solutions": len(results),
                           "correct": sum(r.correct for r in results), "seconds": round(seconds, 2),
                           "solutions_per_minute": round(60.0 * len(results) / seconds, 2) if seconds else None,
                           "median_timed_trials": statistics.median(r.timed_trials for r in results),
                           "median_checked_outputs": statistics.median(checked)}
    for phase in ("correctness_s", "timing_s"):
        values = [r.phases[phase] for r in results if phase in r.phases]
        row[f"median_{phase}"] = round(statistics.median(values), 3) if values else None
    return row


def measure_cost(pairs: Sequence[Pairing], target: Target, sandbox: Sandbox, config: EvalConfig,
                 jobs: int = 1) -> Report:
    """Both modes on every pair, interleaved (see the module docstring); a row per mode and their ratio."""
    configs = {name: config.model_copy(update={"timing_checks": mode}) for name, mode in MODES.items()}
    order = [(index, name) for index in range(len(pairs))
             for name in (("current", "previous") if index % 2 == 0 else ("previous", "current"))]
    _prebuild(pairs, target, sandbox)
    with VerifierPool() as pool, ThreadPoolExecutor(max_workers=max(1, jobs)) as executor:
        list(executor.map(lambda _: evaluate(pairs[0].task, pairs[0].solution.read_text(), target, sandbox=sandbox,
                                             config=configs["current"], runner=pool), range(max(1, jobs))))
        futures = [executor.submit(evaluate, pairs[i].task, pairs[i].solution.read_text(), target, sandbox=sandbox,
                                   config=configs[name], runner=pool) for i, name in order]
        results = [future.result() for future in futures]
    by_mode = {name: [r for (_, mode), r in zip(order, results) if mode == name] for name in MODES}
    rows = [_mode_row(name, by_mode[name]) for name in MODES]
    current, previous = rows
    ratio = previous["solutions_per_minute"] / current["solutions_per_minute"]
    agree = [a.status == b.status for a, b in zip(by_mode["current"], by_mode["previous"])]
    summary = {"solutions": len(pairs), "jobs": jobs, "target": target.name,
               "current_solutions_per_minute": current["solutions_per_minute"],
               "previous_solutions_per_minute": previous["solutions_per_minute"],
               "cost_ratio": round(ratio, 3), "cost_target": f"at most {TARGET_RATIO:g}x",
               "within_target": ratio <= TARGET_RATIO, "same_verdicts": sum(agree),
               "timing_budget_s": config.timing_budget_s}
    return Report(summary=summary, rows=rows, title="verifier cost: current checks beside the previous ones")


def precision_table(pairs: Sequence[Pairing], target: Target, sandbox: Sandbox, config: EvalConfig,
                    jobs: int = 1) -> Report:
    """Each solution's error against float64 beside its task's own float32 error and the bound, in eps."""
    _prebuild(pairs, target, sandbox)
    with VerifierPool() as pool, ThreadPoolExecutor(max_workers=max(1, jobs)) as executor:
        results = list(executor.map(lambda pair: evaluate(pair.task, Path(pair.solution).read_text(), target,
                                                          sandbox=sandbox, config=config, runner=pool), pairs))
    rows = []
    for pair, result in zip(pairs, results):
        precision = result.evidence.get("precision", {})
        row = {"solution": pair.label, "status": result.status.value, "stage": result.stage, **precision}
        if precision.get("solution_eps"):
            row["margin"] = round(precision["bound_eps"] / precision["solution_eps"], 1)
        rows.append(row)
    measured = [row for row in rows if "solution_eps" in row]
    summary = {"solutions": len(pairs), "measured": len(measured), "target": target.name,
               "largest_solution_eps": max((row["solution_eps"] for row in measured), default=None),
               "smallest_margin": min((row["margin"] for row in measured if "margin" in row), default=None),
               "refused_for_precision": sum(row["stage"] == "precision" for row in rows)}
    return Report(summary=summary, rows=rows, title="precision check: errors against float64 in eps")
