"""Paper-exact scoring: a deck succeeds on a task only if it runs on every layout, emits no category
outside the spec, and matches every label (F1 = 1 for every category)."""

from __future__ import annotations

from dataclasses import dataclass, field

from benchmarks.drc.spec import DrcTask
from tools.drc.runner import LayoutVerdict


@dataclass
class TaskScore:
    """One deck on one task."""

    task: str
    success: bool
    reason: str
    compile_rate: float
    f1: dict[str, float] = field(default_factory=dict)
    unknown: list[str] = field(default_factory=list)

    def row(self) -> dict:
        return {"task": self.task, "success": self.success, "reason": self.reason,
                "compile_rate": round(self.compile_rate, 4),
                "min_f1": round(min(self.f1.values()), 4) if self.f1 else 0.0}


def f1_score(true_positive: int, false_positive: int, false_negative: int) -> float:
    """F1 over layouts; a category with no positives and no false alarms scores 1."""
    if true_positive + false_positive + false_negative == 0:
        return 1.0
    return 2 * true_positive / (2 * true_positive + false_positive + false_negative)


def score_task(task: DrcTask, verdicts: list[LayoutVerdict]) -> TaskScore:
    """Score one deck's verdicts (one per layout, in order) against the task's labels."""
    categories = task.spec.categories
    failed = [(layout.name, verdict) for layout, verdict in zip(task.layouts, verdicts) if not verdict.ok]
    compile_rate = 1 - len(failed) / max(1, len(verdicts))
    if failed:
        name, verdict = failed[0]
        return TaskScore(task.spec.id, False, f"{verdict.status} on {len(failed)}/{len(verdicts)} layouts "
                                              f"(first: {name}: {verdict.error})", compile_rate)
    unknown = sorted(set().union(*(v.categories() for v in verdicts)) - set(categories))
    f1 = {category: _category_f1(task, verdicts, category) for category in categories}
    if unknown:
        return TaskScore(task.spec.id, False, f"unknown categories: {', '.join(unknown)}", 1.0, f1, unknown)
    wrong = [f"{category} (F1 {score:.2f})" for category, score in f1.items() if score < 1.0]
    if wrong:
        return TaskScore(task.spec.id, False, "labels not matched: " + ", ".join(wrong), 1.0, f1)
    return TaskScore(task.spec.id, True, "ok", 1.0, f1)


def _category_f1(task: DrcTask, verdicts: list[LayoutVerdict], category: str) -> float:
    counts = [0, 0, 0]
    for layout, verdict in zip(task.layouts, verdicts):
        expected, got = layout.labels[category], verdict.violated(category)
        if expected and got:
            counts[0] += 1
        elif got:
            counts[1] += 1
        elif expected:
            counts[2] += 1
    return f1_score(*counts)


def summarize(scores: list[TaskScore]) -> dict:
    """pass@1 (success rate), error rate (tasks with compile rate below 1) and mean compile rate."""
    total = max(1, len(scores))
    return {"tasks": len(scores), "pass@1": sum(s.success for s in scores) / total,
            "error_rate": sum(s.compile_rate < 1 for s in scores) / total,
            "compile_rate": sum(s.compile_rate for s in scores) / total}
