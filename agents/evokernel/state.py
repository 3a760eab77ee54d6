"""Per-task progress kept in the graph state (plain dicts, so checkpoints stay JSON-like and small)."""

from __future__ import annotations

from typing import Any

from benchmarks.kernels.tasks import KernelTask

from agents.evokernel.taskinfo import op_family, task_bucket

DRAFT, REFINE, SAMPLE, DONE = "draft", "refine", "sample", "done"


def new_task_state(task: KernelTask, method: str) -> dict[str, Any]:
    """A task before its first attempt."""
    return {
        "name": task.qualified_name, "op_family": op_family(task.name, task.source),
        "shape_bucket": task_bucket(task.source), "stage": SAMPLE if method == "pass@k" else DRAFT,
        "attempts": 0, "last_status": None, "last_feedback": "", "last_code_path": None,
        "first_feasible_ms": None, "first_feasible_attempt": None, "best_ms": None, "best_attempt": None,
        "best_code_path": None, "reference_ms": None, "best_extras": {}, "compiled_any": False,
        "start_points": [], "tried": [], "history": [], "done_reason": "",
    }


def is_active(task: dict[str, Any], budget: int) -> bool:
    return task["stage"] != DONE and task["attempts"] < budget


def apply_attempt(task: dict[str, Any], record: dict[str, Any], budget: int) -> dict[str, Any]:
    """The task after one verified attempt (a pure function, so re-running it on resume is harmless)."""
    task = {**task, "attempts": task["attempts"] + 1, "last_status": record["status"],
            "last_feedback": record["feedback"], "last_code_path": record["code_path"],
            "compiled_any": task["compiled_any"] or record["compiled"],
            "tried": task["tried"] + ([record["params_key"]] if record.get("params_key") else [])}
    task["history"] = task["history"] + [{key: record.get(key) for key in (
        "attempt", "stage", "status", "feasible", "latency_ms", "start_point", "reward")}]
    if record["feasible"]:
        task = _with_feasible(task, record)
    if task["attempts"] >= budget:
        task.update(stage=DONE, done_reason=task["done_reason"] or "budget spent")
    return task


def _with_feasible(task: dict[str, Any], record: dict[str, Any]) -> dict[str, Any]:
    latency = record["latency_ms"]
    point = {key: record.get(key) for key in ("attempt", "latency_ms", "memory_id", "code_path", "params",
                                              "bottleneck", "profile")}
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


def stop(task: dict[str, Any], reason: str) -> dict[str, Any]:
    """Mark a task finished early (e.g. the offline policy has nothing new to try)."""
    return {**task, "stage": DONE, "done_reason": reason}


def with_budget(task: dict[str, Any], budget: int, method: str) -> dict[str, Any]:
    """The task under a new budget: one the old budget ended is reopened (in the stage it stopped in)
    when the new one allows more attempts; one that has used up the new budget is finished."""
    if task["stage"] == DONE:
        if task["done_reason"] != "budget spent" or task["attempts"] >= budget:
            return task
        feasible = task["first_feasible_attempt"] is not None
        stage = SAMPLE if method == "pass@k" else (REFINE if feasible else DRAFT)
        return {**task, "stage": stage, "done_reason": ""}
    return stop(task, "budget spent") if task["attempts"] >= budget else task
