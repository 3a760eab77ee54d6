"""One run in a few numbers: status, steps, model use, cost and the best result so far."""

from __future__ import annotations

import time
from collections import Counter
from typing import Any

from agents.runtime.run import Run


def summarize(run: Run) -> dict[str, Any]:
    """Status, finished steps, model calls, tokens, cost and best result of ``run``."""
    events = run.events()
    status = run.status_record()
    steps = Counter(e.get("node") for e in events if e.get("kind") == "node.end")
    report = run.read_report()
    return {
        "id": run.id, "agent": run.agent, "status": status["status"], "reason": status.get("reason") or None,
        "created": time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(run.meta.get("created", 0))),
        "model": run.meta.get("model") or run.runtime.get("model") or "—",
        "steps": sum(steps.values()), "steps_by_node": dict(steps),
        **run.totals.as_dict(), "cost_known": run.totals.unpriced_calls == 0,
        "best": best_result(events, report.summary if report else {}),
        "resumes": sum(1 for e in events if e.get("kind") == "run.resume"),
        **({"waiting_for": status.get("interrupts")} if status["status"] == "paused" else {}),
        "dir": str(run.dir),
    }


def best_result(events: list[dict[str, Any]], report_summary: dict[str, Any]) -> Any:
    """``best`` from the report, else the latest ``best`` event an agent emitted, else None."""
    if report_summary.get("best") is not None:
        return report_summary["best"]
    for event in reversed(events):
        if event.get("kind") == "best":
            return event.get("value")
    return None
