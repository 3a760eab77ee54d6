"""Score decks on suite tasks in one batched run, and the batch-versus-per-process speed benchmark."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Mapping

from benchmarks.drc.scoring import TaskScore, score_task, summarize
from benchmarks.drc.spec import DrcTask
from benchmarks.report import Report
from sandboxes.errors import UserError


def load_decks(tasks: list[DrcTask], source: str) -> dict[str, str | None]:
    """``gold`` gives each task its gold deck; a directory gives ``DIR/<task id>.drc`` (None when absent)."""
    if source == "gold":
        return {task.spec.id: task.spec.gold_deck for task in tasks}
    folder = Path(source)
    if not folder.is_dir():
        raise UserError(f"--decks must be 'gold' or a directory of <task id>.drc files; {source} is neither")
    decks = {}
    for task in tasks:
        path = folder / f"{task.spec.id}.drc"
        decks[task.spec.id] = path.read_text() if path.is_file() else None
    if not any(decks.values()):
        raise UserError(f"no deck in {folder} is named after one of the chosen tasks (<task id>.drc); "
                        f"found {', '.join(sorted(p.name for p in folder.glob('*.drc'))[:5]) or 'no .drc file'}")
    return decks


def stray_decks(source: str, suite: list[DrcTask]) -> list[str]:
    """Deck files of the directory ``source`` whose name matches no task of ``suite`` (none for ``gold``)."""
    if source == "gold":
        return []
    known = {task.spec.id for task in suite}
    return sorted(path.name for path in Path(source).glob("*.drc") if path.stem not in known)


def evaluate_decks(tasks: list[DrcTask], decks: Mapping[str, str | None], runner) -> list[TaskScore]:
    """Every task's deck on every one of its layouts, in one batched evaluation."""
    present = [task for task in tasks if decks.get(task.spec.id) is not None]
    jobs = [(decks[task.spec.id], layout.gds) for task in present for layout in task.layouts]
    verdicts = runner.evaluate(jobs) if jobs else []
    scored, offset = {}, 0
    for task in present:
        count = len(task.layouts)
        scored[task.spec.id] = score_task(task, verdicts[offset:offset + count])
        offset += count
    return [scored.get(task.spec.id) or TaskScore(task.spec.id, False, "no deck for this task", 0.0)
            for task in tasks]


def evaluate_many(task: DrcTask, decks: list[str], runner) -> list[TaskScore]:
    """Several decks on one task, in one batch."""
    copies = [task.model_copy(update={"spec": task.spec.model_copy(update={"id": f"{task.spec.id}#{i}"})})
              for i in range(len(decks))]
    scores = evaluate_decks(copies, {copy.spec.id: deck for copy, deck in zip(copies, decks)}, runner)
    for score in scores:
        score.task = task.spec.id
    return scores


def bench_report(tasks: list[DrcTask], decks: Mapping[str, str | None], runner, source: str) -> Report:
    scores = evaluate_decks(tasks, decks, runner)
    summary = {"decks": source, **summarize(scores),
               "layouts": sum(len(task.layouts) for task in tasks)}
    return Report(summary=summary, rows=[score.row() for score in scores], title=f"Rule2DRC bench ({source} decks)")


def speed_report(task: DrcTask, runner, layouts: int, single_layouts: int) -> Report:
    """Layouts per second for one deck: the batch runner against one klayout process per layout.

    Wall-clock rates depend on how busy the machine is; rates per CPU second (klayout's own user+system
    time, measured by the sandbox) show what one core does.
    """
    pool = [layout.gds for layout in task.layouts]
    batch_jobs = [(task.spec.gold_deck, pool[i % len(pool)]) for i in range(layouts)]
    batch = _timed(runner, lambda: runner.evaluate(batch_jobs))
    single = _timed(runner, lambda: [runner.evaluate([job]) for job in batch_jobs[:single_layouts]])
    rows = [{"mode": "batch (one klayout for all layouts)", "layouts": layouts, **_rates(layouts, *batch)},
            {"mode": "one klayout process per layout", "layouts": single_layouts, **_rates(single_layouts, *single)}]
    summary = {"task": task.spec.id, "batch_layouts_per_s": rows[0]["layouts_per_s"],
               "single_layouts_per_s": rows[1]["layouts_per_s"],
               "batch_layouts_per_cpu_s": rows[0]["layouts_per_cpu_s"],
               "single_layouts_per_cpu_s": rows[1]["layouts_per_cpu_s"],
               "speedup_wall": round(rows[0]["layouts_per_s"] / rows[1]["layouts_per_s"], 1),
               "speedup_cpu": round(rows[0]["layouts_per_cpu_s"] / rows[1]["layouts_per_cpu_s"], 1),
               "sandbox": runner.sandbox.name}
    return Report(summary=summary, rows=rows, title="DRC deck throughput: batch runner vs process per layout")


def _timed(runner, work) -> tuple[float, float]:
    """(wall seconds, klayout CPU seconds) of ``work``."""
    cpu_before, started = runner.stats.cpu_s, time.perf_counter()
    work()
    return time.perf_counter() - started, runner.stats.cpu_s - cpu_before


def _rates(count: int, wall_s: float, cpu_s: float) -> dict:
    return {"wall_s": round(wall_s, 3), "cpu_s": round(cpu_s, 3), "layouts_per_s": round(count / wall_s, 2),
            "layouts_per_cpu_s": round(count / max(cpu_s, 1e-9), 2)}
