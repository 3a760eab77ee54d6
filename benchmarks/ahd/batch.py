"""One batch of candidates on one instance set, in one sandboxed process (``runners/harness.py``).

The harness loads numpy, the problem's runner and the set's data once and runs each candidate in a
forked child under the per-candidate limits, so the sandbox's start-up is paid once per batch. When the
sandboxed process itself dies without a result (its overall limits, a host failure), each candidate is
run again on its own, so one candidate's fault never becomes another's failure. The returned solutions
are verified and scored here, outside the sandbox.
"""

from __future__ import annotations

import json
import math
import sys
import time
from dataclasses import dataclass

from benchmarks.ahd.evaluation import Evaluation
from benchmarks.ahd.problem import IllegalSolution, InstanceSet, Problem
from sandboxes.base import Limits, RunResult, Sandbox
from sandboxes.errors import UserError

SANDBOX_ATTEMPTS = 3
"""Tries of a sandboxed run that ends without a result or cannot start."""
RETRY_PAUSE_S = 1.0
"""Pause before the second try; each later try waits this much longer (a busy host gets time to recover)."""
START_S = 30.0
"""Wall-clock allowance of a batch on top of its candidates' own limits (start-up, loading the data)."""


@dataclass
class SetScore:
    """A candidate's result on one instance set."""

    gap: float
    se: float
    objectives: list[float]
    seconds: float


@dataclass
class SetJob:
    """What every sandboxed run of one evaluator shares."""

    problem: Problem
    sandbox: Sandbox
    static_files: dict[str, bytes]
    wall_s: float
    memory_mb: int
    pids: int = 16
    output_bytes: int = 200_000

    def limits(self, candidates: int) -> Limits:
        wall = self.wall_s * candidates + START_S
        return Limits(wall_s=wall, cpu_s=wall, memory_mb=self.memory_mb, pids=self.pids,
                      output_bytes=self.output_bytes, network=False)


def run_set(job: SetJob, codes: list[str], digests: list[str], instances: InstanceSet,
            npz: bytes) -> list[Evaluation | SetScore]:
    """Each candidate's score on ``instances``, or its failure, in order."""
    task = {"function_name": job.problem.function_name, "options": job.problem.runner_options(instances.spec),
            "candidates": [f"candidate_{i}.py" for i in range(len(codes))], "wall_s": job.wall_s,
            "memory_mb": job.memory_mb}
    files = {**job.static_files, "data.npz": npz, "task.json": json.dumps(task).encode(),
             **{name: code.encode() for name, code in zip(task["candidates"], codes)}}
    result = _sandbox_run(job, files, len(codes))
    if "result.json" in result.files:
        payloads = json.loads(result.files["result.json"])["results"]
        return [_score(job.problem, payload, digest, instances) for payload, digest in zip(payloads, digests)]
    if len(codes) == 1:
        return [_process_failure(job, result, digests[0], instances)]
    return [outcome for code, digest in zip(codes, digests)
            for outcome in run_set(job, [code], [digest], instances, npz)]


def _sandbox_run(job: SetJob, files: dict[str, bytes], candidates: int) -> RunResult:
    """One sandboxed harness run; a process that died without a result, or a sandbox that could not start
    (EAGAIN on a busy host), is tried again."""
    for attempt in range(SANDBOX_ATTEMPTS):
        try:
            result = job.sandbox.run([sys.executable, "harness.py"], files=files, limits=job.limits(candidates),
                                     collect=["result.json"])
        except OSError as error:
            if attempt == SANDBOX_ATTEMPTS - 1:
                raise UserError(f"the sandbox could not start a process: {error}") from error
            result = RunResult(returncode=-1, stdout="", stderr=str(error))
        if "result.json" in result.files or result.timed_out or result.oom_killed:
            return result
        if attempt < SANDBOX_ATTEMPTS - 1:  # no pause after the last try
            time.sleep(RETRY_PAUSE_S * (1 + attempt))
    return result


def _process_failure(job: SetJob, result: RunResult, digest: str, instances: InstanceSet) -> Evaluation:
    where = f"on {instances.spec.name}"
    if result.timed_out:
        return Evaluation.failed(digest, "timeout", f"exceeded {job.wall_s:g} s {where}", result.wall_s)
    if result.oom_killed:
        return Evaluation.failed(digest, "memory", f"exceeded {job.memory_mb} MiB {where}")
    tail = (result.stderr or result.stdout or "").strip()[-800:]
    return Evaluation.failed(digest, "crash", f"exit code {result.returncode} {where}, no result: {tail}")


def _score(problem: Problem, payload: dict, digest: str, instances: InstanceSet) -> Evaluation | SetScore:
    where = f"on {instances.spec.name}"
    if payload["status"] != "ok":
        return Evaluation.failed(digest, payload["kind"], f"{payload['message']} {where}\n{payload['traceback']}")
    try:
        objectives = problem.objectives(instances, payload["solutions"])
    except IllegalSolution as error:
        return Evaluation.failed(digest, "illegal_solution", f"{error} {where}")
    gap = problem.gap_percent(instances, objectives)
    if not math.isfinite(gap):
        return Evaluation.failed(digest, "nan", f"score is {gap} {where}")
    return SetScore(gap, problem.gap_standard_error(instances, objectives), [float(v) for v in objectives],
                    float(payload["seconds"]))
