"""Run a LangGraph ``StateGraph`` inside a run: SQLite checkpoints, resume, node events, progress."""

from __future__ import annotations

import json
import time
from typing import Any, Callable, Sequence

from agents.runtime.interrupts import NO_ANSWER, RunPaused, snapshot_interrupts
from agents.runtime.run import Run

DEFAULT_RECURSION_LIMIT = 10_000
GRAPH_FILE = "graph.json"
"""The compiled graph's shape in a run directory: node ids, edges and Mermaid text."""


def linear_graph(state: type, nodes: Sequence[tuple[str, Callable[[Any], Any]]]) -> Any:
    """A ``StateGraph`` over the typed ``state`` that runs ``nodes`` one after another (add edges to branch)."""
    from langgraph.graph import END, START, StateGraph

    builder = StateGraph(state)
    for name, node in nodes:
        builder.add_node(name, node)
    names = [name for name, _ in nodes]
    for source, target in zip([START, *names], [*names, END]):
        builder.add_edge(source, target)
    return builder


def run_graph(builder: Any, run: Run, initial_state: dict[str, Any], *, progress: Any = None,
              recursion_limit: int = DEFAULT_RECURSION_LIMIT, resume: Any = NO_ANSWER,
              max_concurrency: int | None = None) -> dict[str, Any]:
    """Compile ``builder`` with the run's checkpointer and run it to the end; return the final state.

    A run with a checkpoint continues from it (input ``None``): nodes that finished are not run
    again. A graph that already reached its end is not run at all. Each superstep is saved before
    the next starts, so a killed process loses at most the nodes that were running.

    A graph that stops at a LangGraph ``interrupt(...)`` raises :class:`RunPaused` (a ``graph.paused``
    event holds what it asks). ``resume`` (default: ``run.answer``) answers it with
    ``Command(resume=...)``; without an answer the interrupted node runs again and asks again.

    ``max_concurrency``: threads for the nodes of one superstep (``Send`` fan-outs) and for saving
    their results; give it more than the widest fan-out, so that a finished node's result is saved
    at once instead of waiting behind nodes still queued (limit the real work inside the nodes).
    """
    graph = builder.compile(checkpointer=run.checkpointer())
    save_graph_shape(graph, run)
    config: dict[str, Any] = {"configurable": {"thread_id": run.id}, "recursion_limit": recursion_limit}
    if max_concurrency is not None:
        config["max_concurrency"] = max_concurrency
    snapshot = graph.get_state(config)
    if snapshot.values and not snapshot.next:
        run.emit("graph.already_done")
        return dict(snapshot.values)
    graph_input = _graph_input(run, snapshot, initial_state, run.answer if resume is NO_ANSWER else resume)
    tracker = _NodeTracker(run, progress)
    for chunk in graph.stream(graph_input, config, stream_mode="tasks", durability="sync"):
        tracker.observe(chunk)
    final = graph.get_state(config)
    waiting = snapshot_interrupts(final)
    if waiting:
        values = [item.value for item in waiting]
        run.emit("graph.paused", pending=list(final.next), interrupts=values)
        raise RunPaused(run.id, values)
    run.emit("graph.end", steps=tracker.finished)
    return dict(final.values)


def save_graph_shape(graph: Any, run: Run) -> None:
    """Write the compiled graph's nodes, edges and Mermaid text to ``graph.json`` in the run (once): what the
    dashboard draws. A graph LangGraph cannot describe is noted in an event instead."""
    path = run.dir / GRAPH_FILE
    if path.exists():
        return
    try:
        drawable = graph.get_graph()
        shape = {"nodes": [node.id for node in drawable.nodes.values()],
                 "edges": [{"source": edge.source, "target": edge.target, "conditional": edge.conditional}
                           for edge in drawable.edges],
                 "mermaid": drawable.draw_mermaid()}
    except Exception as error:  # a shape is a convenience: never a reason to fail the run
        run.emit("graph.shape_unavailable", error=f"{type(error).__name__}: {error}")
        return
    path.write_text(json.dumps(shape, indent=1) + "\n")


def _graph_input(run: Run, snapshot: Any, initial_state: dict[str, Any], answer: Any) -> Any:
    """The initial state (new run), None (continue), or ``Command(resume=...)`` answering the interrupts."""
    if not snapshot.next:
        run.emit("graph.start")
        return initial_state
    waiting = snapshot_interrupts(snapshot)
    if waiting and answer is not NO_ANSWER:
        from langgraph.types import Command

        run.answer = NO_ANSWER  # an answer is given once
        run.emit("graph.answer", pending=list(snapshot.next), answer=answer)
        return Command(resume={item.id: answer for item in waiting})
    run.emit("graph.resume", pending=list(snapshot.next))
    return None


class _NodeTracker:
    """Turns LangGraph task chunks into ``node.start``/``node.end``/``node.error`` events."""

    def __init__(self, run: Run, progress: Any):
        self.run = run
        self.progress = progress
        self.started: dict[str, float] = {}
        self.finished = len(run.events("node.end"))

    def observe(self, chunk: dict[str, Any]) -> None:
        name, task = chunk.get("name"), chunk.get("id")
        if "input" in chunk:
            self.started[task] = time.perf_counter()
            self.run.emit("node.start", node=name, task=task)
            return
        duration = round(time.perf_counter() - self.started.pop(task, time.perf_counter()), 6)
        if chunk.get("error"):
            self.run.emit("node.error", node=name, task=task, duration_s=duration, error=str(chunk["error"]))
            return
        if chunk.get("interrupts"):
            self.run.emit("node.interrupt", node=name, task=task, duration_s=duration,
                          interrupts=[item.get("value") for item in chunk["interrupts"]])
            return
        result = chunk.get("result")
        updated = sorted(result) if isinstance(result, dict) else []
        self.run.emit("node.end", node=name, task=task, duration_s=duration, updated=updated)
        self.finished += 1
        if self.progress is not None:
            self.progress.update(step=self.finished, cost=self.run.totals.cost_usd)
