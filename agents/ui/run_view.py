"""A run's page data: summary, settings, the compiled graph, tokens/cost/latency per node and per model call,
what it waits for, and its report."""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from agents.runtime.graph import GRAPH_FILE
from agents.runtime.interrupts import run_guidance, waiting_interrupts
from agents.runtime.run import Run
from agents.runtime.summary import summarize


def run_detail(run: Run) -> dict[str, Any]:
    """Everything the run page shows except the live timeline and the agent's own panel."""
    events = run.events()
    report = run.read_report()
    try:
        waiting = waiting_interrupts(run)
    finally:
        run.close()
    report_md = run.dir / "report.md"
    return {"summary": summarize(run), "graph": with_observed_edges(graph_shape(run), events),
            "settings": {"argv": run.meta.get("argv"), "config": run.config, "runtime": run.runtime,
                         "guidance": run_guidance(run)},
            "waiting": {"interrupts": waiting, "accepts": sorted({key for value in waiting if isinstance(value, dict)
                                                                 for key in value.get("accepts", {})})},
            "nodes": node_stats(events), "model_calls": model_calls(events),
            "report": report.to_dict() if report else None,
            "report_md": report_md.read_text() if report_md.exists() else None}


def graph_shape(run: Run) -> dict[str, Any] | None:
    """The graph as ``run_graph`` saved it when it compiled it (None for runs without one)."""
    path = run.dir / GRAPH_FILE
    try:
        return json.loads(path.read_text()) if path.exists() else None
    except (OSError, json.JSONDecodeError):
        return None


def with_observed_edges(shape: dict[str, Any] | None, events: list[dict[str, Any]]) -> dict[str, Any] | None:
    """The shape plus the transitions this run made that it does not draw (``observed``: routes the compiled graph
    decides at run time, e.g. a router without a declared path map or a ``Command(goto=...)``)."""
    if shape is None:
        return None
    order = [str(e.get("node")) for e in events if e.get("kind") == "node.start"]
    finished = any(e.get("kind") == "graph.end" for e in events)
    path = ["__start__", *order, *(["__end__"] if finished else [])] if order else []
    drawn = {(edge["source"], edge["target"]) for edge in shape["edges"]}
    seen = []
    for pair in zip(path, path[1:]):
        if pair not in drawn and pair[0] in shape["nodes"] and pair[1] in shape["nodes"]:
            drawn.add(pair)
            seen.append({"source": pair[0], "target": pair[1], "conditional": True, "observed": True})
    return {**shape, "edges": [*shape["edges"], *seen]}


def node_names(events: list[dict[str, Any]]) -> dict[str, str]:
    """LangGraph task id -> node name, from ``node.start`` events."""
    return {str(e.get("task")): str(e.get("node")) for e in events if e.get("kind") == "node.start"}


def node_stats(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per graph node: finished runs, errors, seconds (total, mean, max), and the model calls made inside it."""
    names = node_names(events)
    stats: dict[str, dict[str, Any]] = defaultdict(lambda: {"runs": 0, "errors": 0, "seconds": [], "calls": 0,
                                                             "prompt_tokens": 0, "completion_tokens": 0,
                                                             "cost_usd": 0.0, "model_s": 0.0})
    for event in events:
        kind = event.get("kind")
        if kind in ("node.end", "node.error"):
            row = stats[str(event.get("node"))]
            row["runs" if kind == "node.end" else "errors"] += 1
            row["seconds"].append(float(event.get("duration_s") or 0))
        elif kind == "model.call":
            row = stats[names.get(str(event.get("node_task")), "(outside a node)")]
            row["calls"] += 1
            row["prompt_tokens"] += int(event.get("prompt_tokens", 0))
            row["completion_tokens"] += int(event.get("completion_tokens", 0))
            row["cost_usd"] += float(event.get("cost_usd", 0.0))
            row["model_s"] += float(event.get("latency_s") or 0)
    return [{"node": node, **{k: v for k, v in row.items() if k != "seconds"},
             "total_s": round(sum(row["seconds"]), 4),
             "mean_s": round(sum(row["seconds"]) / len(row["seconds"]), 4) if row["seconds"] else None,
             "max_s": round(max(row["seconds"]), 4) if row["seconds"] else None,
             "cost_usd": round(row["cost_usd"], 8), "model_s": round(row["model_s"], 4)}
            for node, row in stats.items()]


def model_calls(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Every model call (and model error) with its node, tokens, cost and latency."""
    names = node_names(events)
    return [{"seq": e.get("seq"), "ts": e.get("ts"), "node": names.get(str(e.get("node_task")), ""),
             "model": e.get("model"), "prompt_tokens": e.get("prompt_tokens", 0),
             "completion_tokens": e.get("completion_tokens", 0), "cost_usd": e.get("cost_usd", 0.0),
             "cost_known": e.get("cost_known", True), "latency_s": e.get("latency_s"), "cached": e.get("cached", False),
             "error": e.get("error")}
            for e in events if e.get("kind") in ("model.call", "model.error")]
