"""EvoKernel's panel: per task, every attempt with its code, the diff from the attempt it started from, the
verdict and its reason, and the Q-memory entries its retrieval chose (Q at retrieval, and every stage's Q now);
correctness and best speedup over attempts."""

from __future__ import annotations

import contextlib
import difflib
import sqlite3
import statistics
from pathlib import Path
from typing import Any

from agents.runtime.run import Run
from agents.ui.views.files import read_text

ENTRY_TEXT_CHARS = 600


def view(run: Run) -> dict[str, Any]:
    events = run.events()
    attempts = _latest(events, "evokernel.attempt")
    retrieved = _latest(events, "evokernel.retrieved")
    verifying = {key: e for key, e in _latest(events, "evokernel.verified").items() if key not in attempts}
    entries = memory_entries(_memory_path(run), {entry["id"] for e in retrieved.values() for entry in e["entries"]})
    tasks: dict[str, list[dict[str, Any]]] = {}
    for (task, number), event in sorted(attempts.items()):
        tasks.setdefault(task, []).append(_attempt(run, event, attempts, retrieved.get((task, number)), entries))
    return {"tasks": [{"task": name, "attempts": rows} for name, rows in tasks.items()],
            "verifying": [{"task": task, "attempt": number, "status": e.get("status")}
                          for (task, number), e in sorted(verifying.items())],
            "curves": curves(tasks), "method": run.config.get("method"), "target": run.config.get("target"),
            "budget": run.config.get("budget")}


def _latest(events: list[dict[str, Any]], kind: str) -> dict[tuple[str, int], dict[str, Any]]:
    """The last event of ``kind`` for each (task, attempt)."""
    return {(str(e.get("task")), int(e.get("attempt", 0))): e for e in events if e.get("kind") == kind}


def _attempt(run: Run, event: dict[str, Any], attempts: dict, retrieval: dict[str, Any] | None,
             entries: dict[int, dict[str, Any]]) -> dict[str, Any]:
    task, start = str(event["task"]), event.get("start_point")
    code = read_text(run, event.get("code_path"))
    start_event = attempts.get((task, int(start))) if start else None
    start_code = read_text(run, start_event.get("code_path")) if start_event else None
    latency, reference = event.get("latency_ms"), event.get("reference_ms")
    return {**{k: event.get(k) for k in ("attempt", "stage", "status", "feasible", "latency_ms", "reference_ms",
                                         "reward", "applied_reward", "start_point", "feedback", "mutation",
                                         "bottleneck")},
            "speedup": round(reference / latency, 4) if event.get("feasible") and latency and reference else None,
            "code": code, "diff": diff(start_code, code, start, event.get("attempt")) if start_code and code else None,
            "retrieved": [{**entry, **entries.get(entry["id"], {})} for entry in (retrieval or {}).get("entries", [])],
            "signature": (retrieval or {}).get("signature")}


def diff(before: str, after: str, start: Any, attempt: Any) -> str:
    """A unified diff from the start point's code to the attempt's."""
    return "".join(difflib.unified_diff(before.splitlines(keepends=True), after.splitlines(keepends=True),
                                        fromfile=f"attempt {start}", tofile=f"attempt {attempt}"))


def _memory_path(run: Run) -> Path | None:
    """The memory file the run learnt into: its --memory for the memory methods, else its own API memory."""
    named = run.config.get("memory") if run.config.get("method") in ("evokernel", "evokernel-noq") else None
    path = Path(named) if named else run.dir / "api-memory.sqlite"
    return path if path.is_file() else None


def memory_entries(path: Path | None, ids: set[int]) -> dict[int, dict[str, Any]]:
    """For each id: kind, task, text (cut), and its Q-value under every (stage, signature) it was updated for."""
    if path is None or not ids:
        return {}
    marks = ",".join("?" * len(ids))
    with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)) as db:
        rows = db.execute(f"SELECT id, kind, task, text FROM entries WHERE id IN ({marks})", sorted(ids)).fetchall()
        q_rows = db.execute(f"SELECT memory_id, stage, signature, q, visits FROM q_values WHERE memory_id IN ({marks})"
                            " ORDER BY stage, signature", sorted(ids)).fetchall()
    found = {int(i): {"kind": kind, "task": task, "text": (text or "")[:ENTRY_TEXT_CHARS], "q_now": []}
             for i, kind, task, text in rows}
    for memory_id, stage, signature, q, visits in q_rows:
        found[int(memory_id)]["q_now"].append({"stage": stage, "signature": signature, "q": round(float(q), 4),
                                               "visits": int(visits)})
    return found


def curves(tasks: dict[str, list[dict[str, Any]]]) -> dict[str, list[float | None]]:
    """Over attempts t = 1..: the fraction of tasks with a correct kernel within t attempts, and the median over
    tasks of the best speedup over the eager baseline found within t attempts (tasks without one left out)."""
    longest = max((len(rows) for rows in tasks.values()), default=0)
    correctness, speedup = [], []
    for t in range(1, longest + 1):
        firsts = [rows[:t] for rows in tasks.values()]
        correctness.append(round(sum(any(r["feasible"] for r in rows) for rows in firsts) / len(firsts), 4))
        best = [max(r["speedup"] for r in rows if r["speedup"]) for rows in firsts if any(r["speedup"] for r in rows)]
        speedup.append(round(statistics.median(best), 4) if best else None)
    return {"correctness": correctness, "speedup_over_eager": speedup}
