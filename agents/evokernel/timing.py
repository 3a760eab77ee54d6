"""`agent bench evokernel-time`: how long the offline main job takes, with and without its savings, side by side.

Each round runs the main job's configuration twice on the same tasks, in alternating order: as shipped,
and without the savings (no stop at the roofline bound, no shared verdict cache). Every arm starts cold:
its own runs root, so an empty experience memory and an empty verdict cache. A row gives the wall time,
the attempts, the verifications actually run, the seconds per verification and the 1-minute load average
before and after, since on a shared machine the wall time says as much about the load as about the code.
It also gives the CPU seconds, which the load changes little: this process's (user + system, with its
reaped children) and the sandbox's (the persistent runners report each verification's CPU seconds, their
workers' included, as the ``cpu_s`` phase), in all and per verification.
"""

from __future__ import annotations

import os
import time
from typing import Any

from agents.runtime.launch import execute_run
from agents.runtime.models.base import ChatModel
from agents.runtime.run import Run
from benchmarks.report import Report
from sandboxes.errors import UserError

from agents.evokernel.agent import AGENT_NAME
from agents.evokernel.config import EvoKernelConfig

TIME_BENCH_NAME = "evokernel-time"
ARMS: dict[str, dict[str, Any]] = {"as shipped": {},
                                   "without the savings": {"roofline_stop": None, "verdict_cache": False}}
"""What each arm changes in the main job's configuration."""


def time_config(base: EvoKernelConfig, rounds: int, arms: list[str] | None = None) -> dict[str, Any]:
    """The bench's run config; ``arms``: which of :data:`ARMS` to time (default all; one arm times the main job
    alone, e.g. ``["as shipped"]`` for the README's first command)."""
    unknown = [arm for arm in arms or [] if arm not in ARMS]
    if unknown:
        raise UserError(f"unknown arm {unknown[0]!r}: choose from {', '.join(ARMS)}")
    return {"base": base.model_dump(mode="json"), "rounds": rounds, "arms": list(arms or ARMS)}


def arm_order(arms: list[str], number: int) -> list[str]:
    """The arms of round ``number`` (from 0): in order on even rounds, reversed on odd ones."""
    return list(arms) if number % 2 == 0 else list(reversed(arms))


def execute_time_bench(run: Run, model: ChatModel | None) -> Report:
    """Run (or, after a stop, finish) every round's arms; an arm stopped half-way is timed again from scratch."""
    if model is not None:
        raise UserError("agent bench evokernel-time times the offline main job: run it without --model")
    base = EvoKernelConfig.model_validate(run.config["base"])
    rows: list[dict[str, Any]] = list(run.meta.get("rows", []))
    arms = list(run.config.get("arms") or ARMS)
    for number in range(int(run.config["rounds"])):
        for arm in arm_order(arms, number):
            if not any(r["round"] == number + 1 and r["arm"] == arm for r in rows):
                rows.append(time_arm(run, base, arm, number + 1))
                run.update_meta(rows=rows)
    return Report(summary=_summary(base, rows), rows=rows, title=f"EvoKernel main job time: {base.tasks}",
                  columns=["round", "arm", "wall_s", "cpu_s", "host_cpu_s", "sandbox_cpu_s", "attempts",
                           "verifications", "s_per_verification", "cpu_s_per_verification", "load_before",
                           "load_after", "correctness"])


def time_arm(run: Run, base: EvoKernelConfig, arm: str, number: int) -> dict[str, Any]:
    """One cold run of the main job with ``arm``'s changes, timed."""
    root = run.dir / "arms" / f"{number}-{arm.replace(' ', '-')}-{time.time_ns()}"
    config = base.model_copy(update={**ARMS[arm], "memory": str(root / "memory.sqlite")})
    child = Run.create(AGENT_NAME, config, root, runtime=run.runtime)
    child.update_meta(model="offline", bench=run.id)
    load_before = os.getloadavg()[0]
    started, cpu_before = time.perf_counter(), process_cpu_s()
    report = execute_run(child, None)
    wall, host_cpu = time.perf_counter() - started, process_cpu_s() - cpu_before
    evaluations = child.events("kernel.evaluate")
    verifications = len(evaluations)
    sandbox_cpu = sum(float((event.get("phases") or {}).get("cpu_s", 0.0)) for event in evaluations)
    return {"round": number, "arm": arm, "wall_s": round(wall, 1), "attempts": report.summary.get("attempts"),
            "verifications": verifications,
            "s_per_verification": round(wall / verifications, 3) if verifications else None,
            "cpu_s": round(host_cpu + sandbox_cpu, 1), "host_cpu_s": round(host_cpu, 1),
            "sandbox_cpu_s": round(sandbox_cpu, 1),
            "cpu_s_per_verification": round((host_cpu + sandbox_cpu) / verifications, 3) if verifications else None,
            "load_before": round(load_before, 2), "load_after": round(os.getloadavg()[0], 2),
            "correctness": report.summary.get("correctness"),
            "median_speedup_over_eager": report.summary.get("median_speedup_over_eager"), "run": child.id}


def process_cpu_s() -> float:
    """User + system CPU seconds of this process and its reaped children so far."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def _summary(base: EvoKernelConfig, rows: list[dict[str, Any]]) -> dict[str, Any]:
    def mean(arm: str, key: str) -> float | None:
        values = [r[key] for r in rows if r["arm"] == arm and r.get(key) is not None]
        return sum(values) / len(values) if values else None

    shipped, without = "as shipped", "without the savings"
    summary: dict[str, Any] = {"tasks": base.tasks, "target": base.target, "budget_per_task": base.budget,
                               "workers": base.workers, "cpus": os.cpu_count()}
    for key in ("wall_s", "cpu_s", "attempts", "verifications", "load_before"):
        a, b = mean(shipped, key), mean(without, key)
        summary[f"{key}_as_shipped"], summary[f"{key}_without_savings"] = a, b
        if a is not None and b:
            summary[f"{key}_ratio"] = round(a / b, 3)
    return summary
