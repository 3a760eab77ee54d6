"""Harness throughput: evaluated solutions per minute with a cold and with a warm build cache, and with
a warm cache through persistent trusted runners (one per job, started inside the measured time)."""

from __future__ import annotations

import os
import shutil
import statistics
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator, Sequence

from benchmarks.kernels.verifier.harness import EvalConfig
from benchmarks.kernels.verifier.runner.persistent import VerifierPool
from benchmarks.kernels.suite import Pairing, run_pairs
from benchmarks.report import Report
from sandboxes.base import Sandbox
from sandboxes.targets.base import Target
from sandboxes.targets.cache import default_cache_root


@contextmanager
def fresh_cache() -> Iterator[Path]:
    """A new, empty build cache (under the default root, so sandboxes can see it) for this block."""
    folder = Path(tempfile.mkdtemp(prefix="throughput-", dir=default_cache_root()))
    folder.chmod(0o755)
    previous = os.environ.get("AGENT_KERNEL_CACHE")
    os.environ["AGENT_KERNEL_CACHE"] = str(folder)
    try:
        yield folder
    finally:
        if previous is None:
            os.environ.pop("AGENT_KERNEL_CACHE", None)
        else:
            os.environ["AGENT_KERNEL_CACHE"] = previous
        shutil.rmtree(folder, ignore_errors=True)


def _timed_pass(phase: str, pairs: Sequence[Pairing], target: Target, sandbox: Sandbox, config: EvalConfig,
                jobs: int, persistent: bool = False) -> dict:
    started = time.perf_counter()
    with VerifierPool() as pool:
        results = run_pairs(pairs, target, sandbox=sandbox, config=config, jobs=jobs,
                            runner=pool if persistent else None)
    seconds = time.perf_counter() - started
    row = {"phase": phase, "solutions": len(results), "correct": sum(r.correct for r in results),
           "seconds": round(seconds, 2), "solutions_per_minute": round(60.0 * len(results) / seconds, 2),
           "median_evaluation_s": round(statistics.median(r.seconds for r in results), 2)}
    for name in ("startup_s", "load_s", "correctness_s", "timing_s"):
        values = [r.phases[name] for r in results if name in r.phases]
        row[f"median_{name}"] = round(statistics.median(values), 2) if values else None
    return row


def measure_throughput(pairs: Sequence[Pairing], make_target: Callable[[], Target], sandbox: Sandbox,
                       config: EvalConfig, jobs: int) -> Report:
    """Evaluate ``pairs`` three times in one run: one-shot runners with an empty build cache, then with it
    warm, then persistent runners with the warm cache (same solutions, same verdicts expected)."""
    with fresh_cache():
        cold = _timed_pass("cold cache", pairs, make_target(), sandbox, config, jobs)
        warm = _timed_pass("warm cache", pairs, make_target(), sandbox, config, jobs)
        persistent = _timed_pass("warm cache, persistent runner", pairs, make_target(), sandbox, config, jobs,
                                 persistent=True)
    summary = {"solutions": len(pairs), "jobs": jobs, "cold_solutions_per_minute": cold["solutions_per_minute"],
               "warm_solutions_per_minute": warm["solutions_per_minute"],
               "warm_over_cold": round(warm["solutions_per_minute"] / cold["solutions_per_minute"], 3),
               "persistent_solutions_per_minute": persistent["solutions_per_minute"],
               "persistent_over_one_shot": round(persistent["solutions_per_minute"] / warm["solutions_per_minute"], 3),
               "same_correct": persistent["correct"] == warm["correct"],
               "timing_budget_s": config.timing_budget_s}
    return Report(summary=summary, rows=[cold, warm, persistent], title="kernel harness throughput")
