"""`agent bench evokernel`: every method on the same tasks, budget and seeds, and the memory effect.

Each seed shuffles the task order into ``waves`` (a wave starts when the one before is done). Each
method runs once per seed; the memory methods run twice, once carrying their memory from wave to wave
and once with every wave starting from the initial memory (``carry_memory`` off). The table gives, for
the tasks of the later waves, the attempts each arm needed to reach 90% of the best latency any run
found (see ``convergence``), with 95% bootstrap intervals over tasks, beside correctness and quality;
the summary gives the paired memory effect (carried minus empty) and each method against evokernel.

The bench is itself a run: each arm runs as a child run recorded in the bench's config, so `agent runs
resume` continues the bench by resuming (or reusing) its children. Children share the bench's runs root,
so identical simulated verifications are answered from the shared verdict cache. A child that pauses
(``pause_every``) pauses the bench; the answer given to the bench goes to that child.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from typing import Any

from agents.runtime.interrupts import NO_ANSWER, RunPaused
from agents.runtime.launch import RunOptions, execute_run, wrap_model
from agents.runtime.models.base import ChatModel
from agents.runtime.run import Run
from benchmarks.report import Report
from sandboxes.errors import UserError

from agents.evokernel.agent import AGENT_NAME
from agents.evokernel.config import METHODS, EvoKernelConfig
from agents.evokernel.convergence import (Interval, Latencies, attempt_latencies, attempts_to_fraction, best_latencies,
                                          bootstrap, paired)
from agents.evokernel.graph import assign_waves
from agents.evokernel.memories import uses_memory

BENCH_NAME = "evokernel-bench"


@dataclass
class ChildResult:
    """One child run of the bench: its seed, id, report and per-task attempt latencies."""

    seed: int
    run_id: str
    report: Report
    latencies: Latencies
QUALITY = ("correctness", "median_speedup_over_eager", "median_roofline_fraction", "median_speedup_over_first_draft",
           "attempts")


def parse_methods(text: str) -> list[str]:
    """``all`` or a comma list of methods."""
    methods = list(METHODS) if text == "all" else [m.strip() for m in text.split(",") if m.strip()]
    unknown = [m for m in methods if m not in METHODS]
    if unknown:
        raise UserError(f"unknown method(s) {', '.join(unknown)}: choose from {', '.join(METHODS)} or all")
    return methods


def arms(methods: list[str]) -> list[tuple[str, bool]]:
    """(method, carry memory): the memory methods both ways, the others once."""
    return [(m, carry) for m in methods for carry in ((True, False) if uses_memory(m) else (True,))]


def arm_name(method: str, carry: bool) -> str:
    return f"{method} ({'carried' if carry else 'empty'} memory)" if uses_memory(method) else method


def bench_config(base: EvoKernelConfig, methods: list[str], seeds: int = 1, waves: int = 1) -> dict[str, Any]:
    return {"base": base.model_dump(mode="json"), "methods": methods, "seeds": seeds, "waves": waves}


def execute_bench(run: Run, model: ChatModel | None) -> Report:
    """Run (or resume) every arm's child runs, then tabulate convergence and quality."""
    base = EvoKernelConfig.model_validate(run.config["base"])
    seeds, waves = int(run.config.get("seeds", 1)), int(run.config.get("waves", 1))
    results: dict[tuple[str, bool], list[ChildResult]] = {}
    for seed in range(seeds):
        for method, carry in arms(run.config["methods"]):
            child = _child_run(run, base, method, carry, seed, waves)
            report = _child_report(run, child, model)
            results.setdefault((method, carry), []).append(
                ChildResult(seed, child.id, report, attempt_latencies(child.events())))
    return _tabulate(run, base, results, seeds, waves)


def _child_report(run: Run, child: Run, model: ChatModel | None) -> Report:
    report = child.read_report() if child.status == "finished" else None
    if report is None:
        inner = getattr(model, "model", model)  # re-account the calls to the child run
        child.answer, run.answer = run.answer, NO_ANSWER
        report = execute_run(child, wrap_model(inner, child, RunOptions(**run.runtime)))
    if report.summary.get("status") == "paused":
        raise RunPaused(run.id, report.summary["interrupts"])
    return report


def _child_run(run: Run, base: EvoKernelConfig, method: str, carry: bool, seed: int, waves: int) -> Run:
    key = f"{arm_name(method, carry)} seed {seed}"
    children: dict[str, str] = dict(run.meta.get("children", {}))
    if key in children:
        return Run.open(children[key], run.dir.parent)
    memory = None
    if uses_memory(method):
        memory = run.dir / f"memory-{method}-{'carried' if carry else 'empty'}-seed{seed}.sqlite"
        if base.memory and not memory.exists():
            shutil.copyfile(base.memory, memory)
    config = base.model_copy(update={"method": method, "memory": str(memory) if memory else None,
                                     "seed": base.seed + seed, "waves": waves, "carry_memory": carry})
    child = Run.create(AGENT_NAME, config, run.dir.parent, runtime=run.runtime)
    child.update_meta(model=run.meta.get("model"), bench=run.id)
    run.update_meta(children={**children, key: child.id})
    return child


def _tabulate(run: Run, base: EvoKernelConfig, results: dict[tuple[str, bool], list[ChildResult]], seeds: int,
              waves: int) -> Report:
    best = best_latencies([child.latencies for arm in results.values() for child in arm])
    names = sorted({row["task"] for arm in results.values() for child in arm for row in child.report.rows})
    later = {seed: {t for t, w in assign_waves(names, waves, base.seed + seed).items()
                    if (w > 0 or waves == 1) and t in best} for seed in range(seeds)}
    convergence = {arm: _attempts(runs, best, later, base.budget) for arm, runs in results.items()}
    rows = [_row(arm, runs, convergence[arm], base.budget) for arm, runs in results.items()]
    summary: dict[str, Any] = {
        "tasks": base.tasks, "target": base.target, "budget_per_task": base.budget, "seeds": seeds, "waves": waves,
        "methods": ", ".join(run.config["methods"]),
        "measured_on": ("tasks of waves 2 and later" if waves > 1 else "every task") + ": attempts until the best "
                       "kernel is within 90% of the best latency any run found (budget + 1 when never); mean over "
                       "tasks of the mean over seeds, 95% bootstrap interval over tasks",
        **_effects(convergence)}
    return Report(summary=summary, rows=rows, title=f"EvoKernel methods on {base.target}: {base.tasks}",
                  columns=["arm", "attempts_to_90", "reached_90", "correctness", "median_speedup_over_eager",
                           "median_roofline_fraction", "attempts"])


def _attempts(runs: list[ChildResult], best: dict[str, float], later: dict[int, set[str]],
              budget: int) -> dict[str, list[int]]:
    """Per later-wave task, the attempts to 90% of each seed's run, in seed order."""
    per_task: dict[str, list[int]] = {}
    for child in sorted(runs, key=lambda c: c.seed):
        for task in sorted(later[child.seed]):
            per_task.setdefault(task, []).append(
                attempts_to_fraction(child.latencies.get(task, []), best[task], budget))
    return per_task


def _row(arm: tuple[str, bool], runs: list[ChildResult], attempts: dict[str, list[int]], budget: int) -> dict:
    """One arm: attempts to 90% with its interval, how often 90% was reached, and the mean quality figures."""
    interval = bootstrap({t: [float(a) for a in v] for t, v in attempts.items()})
    values = [a for v in attempts.values() for a in v]
    row: dict[str, Any] = {"arm": arm_name(*arm), "method": arm[0], "carry_memory": arm[1],
                           "attempts_to_90": interval.text() if interval else None,
                           "attempts_to_90_mean": round(interval.mean, 4) if interval else None,
                           "reached_90": round(sum(a <= budget for a in values) / len(values), 3) if values else None}
    for key in QUALITY:
        present = [c.report.summary.get(key) for c in runs if c.report.summary.get(key) is not None]
        row[key] = round(sum(present) / len(present), 4) if present else None
    row["policy"] = runs[0].report.summary.get("policy") if runs else None
    row["runs"] = ", ".join(c.run_id for c in runs)
    return row


def _effects(convergence: dict[tuple[str, bool], dict[str, list[int]]]) -> dict[str, str]:
    """Paired differences in attempts to 90%: carried minus empty memory, and each arm minus evokernel."""
    def floats(arm: tuple[str, bool]) -> dict[str, list[float]]:
        return {t: [float(a) for a in v] for t, v in convergence[arm].items()}

    effects: dict[str, str] = {}
    for method in ("evokernel", "evokernel-noq"):
        if (method, True) in convergence and (method, False) in convergence:
            effects[f"memory_effect_{method}"] = _say(paired(floats((method, True)), floats((method, False))),
                                                      "carried minus empty memory")
    if ("evokernel", True) in convergence:
        for arm in convergence:
            if arm != ("evokernel", True) and arm[1]:
                effects[f"{arm[0]}_minus_evokernel"] = _say(paired(floats(arm), floats(("evokernel", True))),
                                                            f"{arm[0]} minus evokernel")
    return effects


def _say(interval: Interval | None, what: str) -> str:
    if interval is None:
        return "no tasks to compare"
    verdict = "significant" if interval.excludes_zero else "no significant difference"
    return f"{what}: {interval.text()} attempts over {interval.n} tasks ({verdict} at 95%)"
