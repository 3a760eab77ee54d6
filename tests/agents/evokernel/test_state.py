from agents.evokernel.state import DONE, REFINE, apply_attempt, is_active, new_task_state
from benchmarks.kernels.tasks import load_tasks

RELU = load_tasks("builtin:L1:relu")[0]


def record(attempt, feasible, latency=None, **extra):
    return {"attempt": attempt, "stage": extra.pop("stage", "draft"), "status": "correct" if feasible else "incorrect",
            "feasible": feasible, "compiled": True, "latency_ms": latency, "feedback": "fb",
            "code_path": f"/tmp/a{attempt}.py", "params_key": f"k{attempt}", "reward": 1.0, **extra}


def test_draft_loops_until_feasible_then_refines_and_tracks_the_best():
    task = new_task_state(RELU, "evokernel")
    task = apply_attempt(task, record(1, False), budget=5)
    assert task["stage"] == "draft" and task["attempts"] == 1 and task["tried"] == ["k1"]
    task = apply_attempt(task, record(2, True, 2.0, memory_id=7), budget=5)
    assert task["stage"] == REFINE and task["first_feasible_ms"] == 2.0 and task["first_feasible_attempt"] == 2
    task = apply_attempt(task, record(3, True, 1.5, stage="refine"), budget=5)
    task = apply_attempt(task, record(4, True, 1.8, stage="refine"), budget=5)
    assert task["best_ms"] == 1.5 and task["best_attempt"] == 3 and len(task["start_points"]) == 3
    task = apply_attempt(task, record(5, False, stage="refine"), budget=5)
    assert task["stage"] == DONE and task["done_reason"] == "budget spent" and not is_active(task, 5)


def test_pass_at_k_samples_never_enter_refine():
    task = new_task_state(RELU, "pass@k")
    task = apply_attempt(task, record(1, True, 1.0, stage="sample"), budget=3)
    assert task["stage"] == "sample" and task["first_feasible_ms"] == 1.0


def test_feasible_but_untimed_ends_the_task():
    task = apply_attempt(new_task_state(RELU, "evokernel"), record(1, True, None), budget=3)
    assert task["stage"] == DONE and "not timed" in task["done_reason"]
