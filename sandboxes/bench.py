"""``agent sandbox bench``: the cost of isolation, measured side by side on tiny jobs.

Each round runs one job on every backend in turn (bare subprocess, local sandbox, docker cold start,
docker warm pool), so load changes on the machine hit all of them alike.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import tempfile
import time
from typing import Callable

from sandboxes.base import Limits
from sandboxes.select import docker_answers
from sandboxes.workdir import write_files

CPP = b'#include <cstdio>\nint main() { long s = 0; for (int i = 0; i < 1000; ++i) s += i; std::printf("%ld\\n", s); }\n'
JOBS = {
    "python": (["python", "-c", "print(sum(range(1000)))"], {}, "499500"),
    "g++": (["sh", "-c", "g++ -O0 -o main main.cc && ./main"], {"main.cc": CPP}, "499500"),
}
Runner = Callable[[list[str], dict[str, bytes]], str]


def _bare(argv: list[str], files: dict[str, bytes]) -> str:
    with tempfile.TemporaryDirectory() as folder:
        write_files(folder, files)
        return subprocess.run(argv, cwd=folder, capture_output=True, text=True, timeout=60).stdout


def _sandboxed(sandbox) -> Runner:
    limits = Limits(wall_s=60, cpu_s=60)
    return lambda argv, files: sandbox.run(argv, files=files, limits=limits).stdout


def _backends() -> tuple[dict[str, Runner], dict[str, str]]:
    """The runners to compare, and the reasons for the ones that cannot run here."""
    from sandboxes.local import LocalSandbox

    runners: dict[str, Runner] = {"bare": _bare, "local": _sandboxed(LocalSandbox())}
    problem = docker_answers()
    if problem is not None:
        return runners, {"docker-cold": problem, "docker-warm": problem}
    from sandboxes.docker_sandbox import DockerSandbox

    warm = DockerSandbox(warm=True, pool_size=1)
    warm.prewarm(Limits(wall_s=60, cpu_s=60), 1)
    runners["docker-cold"] = _sandboxed(DockerSandbox(warm=False))
    runners["docker-warm"] = _sandboxed(warm)
    return runners, {}


def _time_round(runners: dict[str, Runner], job: str, times: dict, failures: dict) -> None:
    argv, files, expected = JOBS[job]
    for name, runner in runners.items():
        started = time.perf_counter()
        output = runner(argv, files)
        times[name].append(time.perf_counter() - started)
        failures[name] += expected not in output


def run_bench(jobs: int = 100, kinds: tuple[str, ...] = tuple(JOBS), progress=None) -> tuple[dict, list[dict]]:
    """Time ``jobs`` runs of each job kind on each backend; return (summary, rows)."""
    runners, skipped = _backends()
    rows: list[dict] = []
    for kind in kinds:
        times = {name: [] for name in runners}
        failures = {name: 0 for name in runners}
        for index in range(jobs):
            _time_round(runners, kind, times, failures)
            if progress:
                progress(kind, index + 1, jobs)
        bare = statistics.mean(times["bare"])
        for name, samples in times.items():
            mean = statistics.mean(samples)
            rows.append({"job": kind, "backend": name, "jobs": len(samples), "mean_ms": round(mean * 1e3, 2),
                         "median_ms": round(statistics.median(samples) * 1e3, 2),
                         "ratio_vs_bare": round(mean / bare, 3), "failures": failures[name]})
        rows += [{"job": kind, "backend": name, "jobs": 0, "skipped": reason} for name, reason in skipped.items()]
    warm = next((r for r in rows if r["job"] == "python" and r["backend"] == "docker-warm" and "ratio_vs_bare" in r),
                None)
    summary = {"jobs_per_backend": jobs, "cpus": os.cpu_count(),
               "python_warm_pool_ratio": warm["ratio_vs_bare"] if warm else None,
               "target": "docker warm pool within 1.5x of bare subprocess for the Python job",
               "target_met": bool(warm and warm["ratio_vs_bare"] <= 1.5)}
    return summary, rows
