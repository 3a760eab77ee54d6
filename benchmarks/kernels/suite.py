"""Running a solution set against tasks in parallel: pairing files to tasks, rows and the report.

Solution files are named ``<level>__<task>.py``, ``<level>__<task>__<variant>.py`` or ``<task>.py``.
Task names may themselves contain ``__`` or end in ``_`` (KernelBench's
``50_conv_standard_2D__square_input__square_kernel``), so a file is matched against the task names,
longest first, never split at ``__``. ``builtin:reference``, ``builtin:adversarial`` (cpu; gpu and npu
have their own folders) and ``builtin:accepted`` (correct solutions in many styles) name the sets shipped here.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence

from benchmarks.executor import Executor, LocalExecutor, Place
from benchmarks.kernels.fanout import VERIFIERS, verify_files
from benchmarks.kernels.verifier.harness import EvalConfig
from benchmarks.kernels.metrics import summarize
from benchmarks.kernels.verifier.result import KernelResult
from benchmarks.kernels.verifier.runner.persistent import TrustedRunner
from benchmarks.kernels.tasks import KernelTask, SkippedTask, task_notes
from benchmarks.report import Report
from sandboxes.base import Sandbox
from sandboxes.errors import UserError
from sandboxes.targets.base import Target
from sandboxes.threadsafe import serialise_ast_parse

SOLUTIONS_ROOT = Path(__file__).parent / "solutions"


@dataclass(frozen=True)
class Pairing:
    """One solution file to evaluate against one task."""

    task: KernelTask
    solution: Path

    @property
    def label(self) -> str:
        """The solution's name in rows and plots (the file stem)."""
        return self.solution.stem


def solutions_dir(spec: str, target: str) -> Path:
    """The folder a ``--solutions`` value names."""
    if spec == "builtin:reference" and target == "npu":
        from benchmarks.kernels.npu_references import reference_dir

        folder = reference_dir()
    elif spec == "builtin:reference":
        folder = SOLUTIONS_ROOT / "reference" / target
    elif spec == "builtin:adversarial":
        folder = SOLUTIONS_ROOT / "adversarial" / (target if target in ("gpu", "npu") else "")
    elif spec == "builtin:accepted":
        folder = SOLUTIONS_ROOT / "accepted" / target
    elif spec.startswith("builtin:"):
        raise UserError(f"unknown solution set {spec!r}; use builtin:reference, builtin:adversarial, "
                        "builtin:accepted, builtin:eager or a folder")
    else:
        folder = Path(spec).expanduser()
    if not folder.is_dir():
        raise UserError(f"solutions folder {folder} does not exist"
                        + (f" (no reference solutions for target {target})" if spec == "builtin:reference" else ""))
    return folder


@dataclass
class Matching:
    """Which solution files go with which tasks, and what pairs with nothing."""

    pairs: list[Pairing]
    missing: list[KernelTask]
    """Tasks without a solution file."""
    unmatched: list[Path]
    """Solution files that name no task."""

    def warnings(self) -> list[str]:
        """One line per solution without a task, one for the tasks without a solution."""
        lines = [f"warning: solution {path.name} pairs with no task" for path in self.unmatched]
        if self.missing:
            names = ", ".join(t.qualified_name for t in self.missing[:8]) + (", ..." if len(self.missing) > 8 else "")
            lines.append(f"warning: {len(self.missing)} task(s) have no solution: {names}")
        return lines


def pair_solutions(tasks: Sequence[KernelTask], folder: Path) -> Matching:
    """Match solution files to tasks by name (see the module docstring)."""
    pairs: list[Pairing] = []
    unmatched: list[Path] = []
    for path in sorted(folder.glob("*.py")):
        chosen = solution_tasks(path.stem, tasks)
        pairs += [Pairing(task, path) for task in chosen]
        if not chosen:
            unmatched.append(path)
    solved = {p.task.qualified_name for p in pairs}
    return Matching(pairs, [t for t in tasks if t.qualified_name not in solved], unmatched)


def solution_tasks(stem: str, tasks: Sequence[KernelTask]) -> list[KernelTask]:
    """The tasks a solution file stem names: ``<task>``, ``<level>__<task>``, either with ``__<variant>`` after it;
    a task's trailing underscores may be left out (KernelBench's ``26_GELU_``: ``26_GELU.py``). Where several task
    names fit, the longest wins (``L1__a__b`` is task ``a__b``, not ``a`` variant ``b``)."""
    scored = [(score, task) for task in tasks if (score := _name_fit(stem, task))]
    longest = max((score for score, _ in scored), default=(0, False))
    return [task for score, task in scored if score == longest]


def _name_fit(stem: str, task: KernelTask) -> tuple[int, bool] | None:
    """How well ``stem`` names ``task``: the length of the name it uses, and whether that is the name as written
    (``1_Square_`` and ``1_Square`` may both be tasks); None when it does not name it."""
    fits = [(len(name), name == task.name) for name in {task.name, task.name.rstrip("_") or task.name}
            if stem in (name, f"{task.level}__{name}") or stem.startswith((f"{name}__", f"{task.level}__{name}__"))]
    return max(fits, default=None)


def default_jobs(threads: int = 1) -> int:
    """Parallel evaluations: one per free core (each evaluation uses ``threads`` threads plus a runner)."""
    return max(1, (os.cpu_count() or 1) // max(1, threads))


def run_pairs(pairs: Sequence[Pairing], target: Target, *, sandbox: Sandbox | None = None,
              config: EvalConfig | None = None, jobs: int = 1,
              on_result: Callable[[int, Pairing, KernelResult], None] | None = None,
              runner: TrustedRunner | None = None, executor: Executor | None = None) -> list[KernelResult]:
    """Evaluate every pair with at most ``jobs`` at a time; results keep the order of ``pairs``.
    ``runner``: e.g. a ``VerifierPool`` (default: a one-shot trusted runner per solution); ``executor``: where
    the evaluations run (default: here; on ``ray`` each node uses its own sandbox and, with ``runner``, its own pool)."""
    serialise_ast_parse()  # the harness parses every source, from several threads here
    place = Place(sandbox, kept={VERIFIERS: runner} if runner is not None else None)
    return verify_files([(p.task, p.solution) for p in pairs], target, executor or LocalExecutor(), place,
                        config or EvalConfig(), runner is not None, max(1, jobs),
                        None if on_result is None else lambda done, index, result: on_result(done, pairs[index], result))


TABLE_COLUMNS = ("task", "solution", "status", "speedup", "runtime_ms", "reference_ms", "reason")
"""The columns a terminal shows (the report files hold every column and the whole reason)."""


def build_report(pairs: Sequence[Pairing], results: Sequence[KernelResult], target: Target,
                 missing: Sequence[KernelTask], title: str, *, unmatched: Sequence[Path] = (),
                 skipped: Sequence[SkippedTask] = ()) -> Report:
    """Rows (task, solution, status, correct, reason, speedup, runtime_ms, reference_ms, ..., shapes when
    scaled) and the summary, which lists solutions and task files that paired with nothing."""
    rows = []
    for pair, result in zip(pairs, results):
        row = result.to_row()
        rows.append({"task": row.pop("task"), "solution": pair.label, **row}
                    | ({"shapes": pair.task.shapes} if pair.task.shapes else {}))
    summary = {"target": target.name, "baseline": target.runner_settings().baseline, **summarize(results)}
    if target.simulated:
        summary["simulated"] = True
    if missing:
        summary["tasks_without_solution"] = len(missing)
    if unmatched:
        summary["solutions_without_task"] = [path.name for path in unmatched]
    tasks = list({pair.task.qualified_name: pair.task for pair in pairs}.values())
    summary.update({k: v for k, v in task_notes(tasks, list(skipped)).items() if k != "shapes"})
    return Report(summary=summary, rows=rows, title=title, columns=list(TABLE_COLUMNS))
