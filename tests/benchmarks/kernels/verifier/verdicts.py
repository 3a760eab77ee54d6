"""Helpers of the runtime-defence tests: a file's expected runtime verdict, and repeated evaluations."""

from __future__ import annotations

import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from benchmarks.kernels.suite import SOLUTIONS_ROOT
from benchmarks.kernels.verifier.harness import evaluate
from benchmarks.kernels.verifier.result import KernelResult

ADVERSARIAL = SOLUTIONS_ROOT / "adversarial"


def adversarial(pattern: str, target: str = "") -> list[Path]:
    """The builtin:adversarial files of ``target`` ('' for cpu) whose names match ``pattern``."""
    return sorted((ADVERSARIAL / target).glob(pattern))


def task_for(path: Path, request):
    """The task a builtin:adversarial file is judged on: its own for transpose_2d files, a 16 MB ReLU for the hacks
    that work in the hand-over of the output (a tiny one's costs less CPU than the runner's slack), else a small
    ReLU."""
    if "__transpose_2d__" in path.name:
        return request.getfixturevalue("tiny_transpose")
    return request.getfixturevalue("large_relu" if "handover" in path.name else "tiny_relu")


def runtime_expectation(path: Path) -> tuple[str, str, str]:
    """(status, stage, text) of the file's ``runtime:`` line: its verdict with the static checks off."""
    status, stage, text = re.search(r"runtime: (\w+) (\w+) (.*)", path.read_text()).groups()
    return status, stage, text.strip()


def matches(result: KernelResult, status: str, stage: str, text: str) -> bool:
    """True when the verdict has this status and stage and its reason contains the words of ``text`` in order."""
    return (result.status.value, result.stage) == (status, stage) and bool(
        re.search(".*".join(map(re.escape, text.split())), result.reason))


def evaluate_times(times: int, task, source: str, target, sandbox, config, pool, jobs: int = 2) -> list[KernelResult]:
    """``times`` independent evaluations of one source through ``pool``, ``jobs`` at a time."""
    with ThreadPoolExecutor(max_workers=jobs) as executor:
        futures = [executor.submit(evaluate, task, source, target, sandbox=sandbox, config=config, runner=pool)
                   for _ in range(times)]
        return [future.result() for future in futures]
