"""PathWise's panel: the entailment graph (every heuristic with its code, derivation and score; edges parent ->
child with the rationale) and the gap over evaluations (each evaluation's train gap and the best so far)."""

from __future__ import annotations

import math
from typing import Any

from memory.entailment.store import GraphStore

from agents.runtime.run import Run

GRAPH_DB = "entailment.sqlite"


def view(run: Run) -> dict[str, Any]:
    path = run.dir / GRAPH_DB
    graph = GraphStore(path).load().to_dict() if path.is_file() else {"nodes": [], "edges": []}
    report = run.read_report()
    summary = report.summary if report else {}
    nodes = [{**node, "score": _finite(node.get("score"))} for node in graph["nodes"]]
    return {"nodes": nodes, "edges": graph["edges"], "gaps": gap_curve(run.events("pathwise.node")),
            "best_id": summary.get("best_id") or _best(nodes), "problem": run.config.get("problem"),
            "method": run.config.get("method")}


def gap_curve(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One point per evaluated heuristic, in evaluation order: its gap (None if it failed) and the best so far."""
    best, points = None, []
    for index, event in enumerate(events, start=1):
        score = _finite(event.get("score"))
        if score is not None and (best is None or score < best):
            best = score
        points.append({"evaluation": index, "id": event.get("id"), "gap": score, "best": best})
    return points


def _best(nodes: list[dict[str, Any]]) -> str | None:
    scored = [n for n in nodes if n["score"] is not None]
    return min(scored, key=lambda n: n["score"])["id"] if scored else None


def _finite(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and math.isfinite(value) else None
