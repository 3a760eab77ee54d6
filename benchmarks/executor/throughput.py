"""`agent bench executor`: evaluations per minute on the ``local`` executor and on Ray clusters of one and of two
nodes started on this machine, side by side in one run, and Ray's overhead per evaluation.

Every leg verifies the same jobs (kernel verifications through persistent runners) after a warm-up round that
starts each node's runners, so what differs is only where the evaluations run. Ray's overhead is the driver's
wait for an evaluation minus the time the evaluation took on its worker (submission, scheduling, argument and
result transfer), averaged over the measured evaluations, and set against a typical verification's time here.
"""

from __future__ import annotations

import logging
import statistics
import time
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from benchmarks.executor.base import Executor, Job, Place, run_all
from benchmarks.executor.local import LocalExecutor
from benchmarks.executor.local_cluster import STORE_BYTES, started_cluster
from benchmarks.report import Report

@dataclass
class Leg:
    """One configuration's measurement."""

    name: str
    seconds: float
    """Wall time of the measured round."""
    evaluations: int
    width: int
    """Evaluations in flight at once."""
    verdicts: list[Any]
    overhead_ms: float | None = None
    """Ray's mean overhead per evaluation (None: the local executor has none to measure)."""

    def row(self, typical_ms: float) -> dict[str, Any]:
        """The leg as a report row; ``typical_ms``: one verification's time, for the overhead's share."""
        share = None if self.overhead_ms is None else round(100 * self.overhead_ms / typical_ms, 2)
        return {"executor": self.name, "in_flight": self.width, "evaluations": self.evaluations,
                "seconds": round(self.seconds, 2), "evaluations_per_min": round(60 * self.evaluations / self.seconds, 1),
                "overhead_ms_per_eval": None if self.overhead_ms is None else round(self.overhead_ms, 2),
                "overhead_pct_of_verification": share}


def timed(executor: Executor, jobs: Sequence[Job], width: int, place: Place | None = None) -> tuple[float, list]:
    """A warm-up round (one job per slot, not measured), then every job: (seconds, values)."""
    run_all(executor, list(jobs[:width]), place=place, width=width)
    started = time.perf_counter()
    values = run_all(executor, jobs, place=place, width=width)
    return time.perf_counter() - started, values


def local_leg(jobs: Sequence[Job], width: int, sandbox: str | None) -> Leg:
    """The jobs on the local executor, ``width`` at a time."""
    executor = LocalExecutor(sandbox)
    try:
        seconds, values = timed(executor, jobs, width)
    finally:
        executor.close()
    return Leg("local", seconds, len(jobs), width, values)


def ray_legs(jobs: Sequence[Job], cpus: int, sandbox: str | None) -> list[Leg]:
    """The jobs on a new Ray cluster of this machine: with its head node alone, then with a second node added
    (``cpus`` CPUs each); the first leg's workers stay warm for the second."""
    import ray

    from benchmarks.executor.ray_executor import RayExecutor, RayExecutorConfig

    if ray.is_initialized():
        ray.shutdown()  # the benchmark measures a cluster of its own
    node_args = {"num_cpus": cpus, "object_store_memory": STORE_BYTES}
    cluster = started_cluster(**node_args)
    legs = []
    try:
        ray.init(address=cluster.address, log_to_driver=False, logging_level=logging.WARNING)
        executor = RayExecutor(RayExecutorConfig(sandbox=sandbox))
        for nodes in (1, 2):
            if nodes == 2:
                cluster.add_node(**node_args)
                cluster.wait_for_nodes()
                executor.inventory.nodes(fresh=True)
            legs.append(ray_leg(executor, jobs, nodes))
    finally:
        ray.shutdown()
        cluster.shutdown()
    return legs


def ray_leg(executor: Any, jobs: Sequence[Job], nodes: int) -> Leg:
    """The jobs on ``executor``'s cluster as it is now (``nodes`` nodes), every slot busy."""
    width = executor.width(1, jobs[0].needs)
    seconds, values = timed(executor, jobs, width)
    overhead = statistics.mean(executor.overheads_s[-len(jobs):]) * 1000
    return Leg(f"ray, {nodes} node{'s' if nodes > 1 else ''}", seconds, len(jobs), width, values, overhead)


def compare(jobs: Sequence[Job], verdict: Callable[[Any], Any], cpus: int = 1, sandbox: str | None = None) -> Report:
    """Local (``cpus`` at a time), Ray on one node and Ray on two nodes (``cpus`` each), in that order;
    ``verdict``: what of a job's value must be the same on every leg (a verification's status, not its timings)."""
    legs = [local_leg(jobs, cpus, sandbox), *ray_legs(jobs, cpus, sandbox)]
    typical_ms = 1000 * legs[0].seconds * legs[0].width / len(jobs)
    same = all([verdict(v) for v in leg.verdicts] == [verdict(v) for v in legs[0].verdicts] for leg in legs)
    overheads = [leg.overhead_ms for leg in legs if leg.overhead_ms is not None]
    summary = {"evaluations_per_leg": len(jobs), "cpus_per_node": cpus, "typical_verification_ms": round(typical_ms, 1),
               "same_verdicts_on_every_leg": same,
               "ray_overhead_ms_per_eval": round(max(overheads), 2),
               "ray_overhead_pct_of_verification": round(100 * max(overheads) / typical_ms, 2),
               "two_nodes_vs_local": round(legs[0].seconds / legs[2].seconds, 2)}
    return Report(summary=summary, rows=[leg.row(typical_ms) for leg in legs],
                  title="executor throughput: local beside Ray on one and two nodes of this machine")
