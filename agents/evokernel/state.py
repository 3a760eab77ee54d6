"""Per-task progress kept in the graph state (typed dicts, see ``records``), and its transitions."""

from __future__ import annotations

from benchmarks.kernels.tasks import KernelTask

from agents.evokernel.records import AttemptRecord, StartPoint, TaskState
from agents.evokernel.taskinfo import op_family, task_bucket

DRAFT, REFINE, SAMPLE, DONE = "draft", "refine", "sample", "done"
AT_BOUND = "at the roofline bound (simulated): no kernel can be much faster"


def new_task_state(task: KernelTask, method: str, wave: int = 0) -> TaskState:
    """A task before its first attempt."""
    return TaskState(
        name=task.qualified_name, op_family=op_family(task.name, task.source), shape_bucket=task_bucket(task.source),
        stage=SAMPLE if method == "pass@k" else DRAFT, wave=wave, attempts=0, last_status=None, last_feedback="",
        last_code_path=None, first_feasible_ms=None, first_feasible_attempt=None, best_ms=None, best_attempt=None,
        best_code_path=None, reference_ms=None, best_extras={}, compiled_any=False, start_points=[], tried=[],
        history=[], done_reason="", seconds=0.0)


def is_active(task: TaskState, budget: int) -> bool:
    return task["stage"] != DONE and task["attempts"] < budget


def at_roofline(task: TaskState, bound: float | None) -> bool:
    """True when the task's best kernel reaches ``bound`` of the (simulated) roofline."""
    fraction = task["best_extras"].get("roofline_fraction")
    return bound is not None and fraction is not None and float(fraction) >= bound - 1e-9


def apply_attempt(task: TaskState, record: AttemptRecord, budget: int) -> TaskState:
    """The task after one verified attempt (a pure function, so re-running it on resume is harmless)."""
    task = TaskState(**{**task, "attempts": task["attempts"] + 1, "last_status": record["status"],
                        "last_feedback": record["feedback"], "last_code_path": record["code_path"],
                        "compiled_any": task["compiled_any"] or record["compiled"],
                        "seconds": record.get("seconds") or task.get("seconds", 0.0),
                        "tried": task["tried"] + ([record["params_key"]] if record.get("params_key") else [])})
    task["history"] = task["history"] + [{
        "attempt": record["attempt"], "stage": record["stage"], "status": record["status"],
        "feasible": record["feasible"], "latency_ms": record["latency_ms"],
        "reference_ms": record.get("reference_ms"), "start_point": record.get("start_point"),
        "reward": record["reward"]}]
    if record["feasible"]:
        task = _with_feasible(task, record)
    if task["attempts"] >= budget:
        task.update(stage=DONE, done_reason=task["done_reason"] or "budget spent")
    return task


def _with_feasible(task: TaskState, record: AttemptRecord) -> TaskState:
    latency = record["latency_ms"]
    point = StartPoint(attempt=record["attempt"], latency_ms=latency, memory_id=record.get("memory_id"),
                       code_path=record["code_path"], params=record.get("params"),
                       bottleneck=record.get("bottleneck"), profile=record.get("profile"),
                       roofline_fraction=record.get("roofline_fraction"))
    task["start_points"] = task["start_points"] + [point]
    if task["first_feasible_attempt"] is None:
        task.update(first_feasible_ms=latency, first_feasible_attempt=record["attempt"])
        if task["stage"] == DRAFT:
            task["stage"] = REFINE if latency else DONE
            task["done_reason"] = "" if latency else "feasible, but not timed here: nothing to refine against"
    if task["best_ms"] is None or (latency is not None and latency < task["best_ms"]):
        task.update(best_ms=latency, best_attempt=record["attempt"], best_code_path=record["code_path"],
                    reference_ms=record.get("reference_ms"), best_extras=record.get("extras") or {})
    return task


def stop(task: TaskState, reason: str) -> TaskState:
    """Mark a task finished early (e.g. the offline policy has nothing new to try)."""
    return TaskState(**{**task, "stage": DONE, "done_reason": reason})


def with_budget(task: TaskState, budget: int, method: str) -> TaskState:
    """The task under a new budget: one the old budget ended is reopened (in the stage it stopped in)
    when the new one allows more attempts; one that has used up the new budget is finished."""
    if task["stage"] == DONE:
        if task["done_reason"] != "budget spent" or task["attempts"] >= budget:
            return task
        feasible = task["first_feasible_attempt"] is not None
        stage = SAMPLE if method == "pass@k" else (REFINE if feasible else DRAFT)
        return TaskState(**{**task, "stage": stage, "done_reason": ""})
    return stop(task, "budget spent") if task["attempts"] >= budget else task
