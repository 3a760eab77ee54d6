"""A run's events as the spans of one trace, in plain records (no OpenTelemetry import; ``otel`` exports them).

Each segment of a run (``run.start`` to ``run.end``: the first execution, then every resume) is a root span
``invoke_agent AGENT``; below it a span per graph node (``node.start`` to ``node.end``), and inside those a
span per model call (``chat MODEL``, with the GenAI semantic-convention attributes) and per tool call
(``execute_tool NAME``). Every other event (sandbox results, verdicts, attempts, guidance...) becomes a span
event of the innermost span that was open when it happened: the node that emitted it when the event names its
LangGraph task (``node_task``), else the spans open at its time. Ids are derived from the run id and the
events' ``seq``, so exporting the same run again yields the same trace and span ids.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any, Iterable

NODE_END_KINDS = ("node.end", "node.error", "node.interrupt")
MODEL_KINDS = ("model.call", "model.error")
ATTRIBUTE_TEXT_LIMIT = 4000
"""Longer values (JSON of nested fields) are cut to this many characters."""
SKIPPED_FIELDS = ("seq", "ts", "kind", "node_task")


@dataclass
class SpanRecord:
    """One span: ids, name, times in seconds since the epoch, attributes, span events and an error if any."""

    span_id: int
    name: str
    start: float
    end: float
    kind: str = "internal"
    """internal, or client for calls to a model provider."""
    parent_id: int | None = None
    attributes: dict[str, Any] = field(default_factory=dict)
    events: list[tuple[str, float, dict[str, Any]]] = field(default_factory=list)
    error: str | None = None
    node_task: str | None = None
    """The LangGraph task of the node this span belongs to (a node span's own task)."""
    is_node: bool = False


def trace_id(run_id: str) -> int:
    """The run's 128-bit trace id (the same for every segment and every export)."""
    return int(hashlib.sha256(f"agentkiln-trace/{run_id}".encode()).hexdigest()[:32], 16) or 1


def span_id(run_id: str, seq: int) -> int:
    """A 64-bit span id from the ``seq`` of the event that starts the span."""
    return int(hashlib.sha256(f"agentkiln-span/{run_id}/{seq}".encode()).hexdigest()[:16], 16) or 1


def segments(events: list[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The events cut at every ``run.start`` (events before the first one join the first segment)."""
    parts: list[list[dict[str, Any]]] = []
    for event in events:
        if event.get("kind") == "run.start" or not parts:
            parts.append([])
        parts[-1].append(event)
    return parts


def attributes(fields: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """Fields as OpenTelemetry attribute values: scalars and homogeneous lists as they are, anything else as JSON
    text; None values and the event's own bookkeeping (seq, ts, kind) are left out."""
    flat: dict[str, Any] = {}
    for key, value in fields.items():
        if key in SKIPPED_FIELDS or value is None:
            continue
        flat[prefix + key] = _attribute_value(value)
    return flat


def _attribute_value(value: Any) -> Any:
    if isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, str):
        return value[:ATTRIBUTE_TEXT_LIMIT]
    if isinstance(value, (list, tuple)) and value and len({type(v) for v in value}) == 1 \
            and isinstance(value[0], (str, bool, int, float)):
        return list(value)
    return json.dumps(value, default=str)[:ATTRIBUTE_TEXT_LIMIT]


def build_spans(run_id: str, agent: str, events: list[dict[str, Any]]) -> list[SpanRecord]:
    """Every segment's spans, roots first in each segment."""
    return [span for part in segments(events) for span in segment_spans(run_id, agent, part)]


def segment_spans(run_id: str, agent: str, events: list[dict[str, Any]]) -> list[SpanRecord]:
    """One segment's spans: the root, then node, model and tool spans, with the other events placed on them."""
    if not events:
        return []
    root = _root(run_id, agent, events)
    nodes, calls, points = _spans(run_id, events, root)
    for span in nodes:
        span.parent_id = root.span_id
    for span in calls:
        span.parent_id = _node_of(span.node_task, span.end, nodes, root).span_id
    by_id = {span.span_id: span for span in [root, *nodes, *calls]}
    for event in points:
        holder = _holder(event, nodes, calls) or root
        by_id[holder.span_id].events.append((str(event.get("kind")), float(event["ts"]), attributes(event)))
    return [root, *nodes, *calls]


def _root(run_id: str, agent: str, events: list[dict[str, Any]]) -> SpanRecord:
    first, last = events[0], events[-1]
    root = SpanRecord(span_id(run_id, int(first.get("seq", 0))), f"invoke_agent {agent}", float(first["ts"]),
                      float(last["ts"]), attributes={"gen_ai.operation.name": "invoke_agent", "gen_ai.agent.name": agent,
                                                      "agentkiln.run.id": run_id})
    end = next((e for e in reversed(events) if e.get("kind") == "run.end"), None)
    if end is None:
        root.attributes["agentkiln.run.status"] = "unfinished"
        root.error = "the run's process ended before the run did (killed?)"
        return root
    root.attributes.update({"agentkiln.run.status": end.get("status", ""),
                            "gen_ai.usage.input_tokens": int(end.get("prompt_tokens", 0)),
                            "gen_ai.usage.output_tokens": int(end.get("completion_tokens", 0)),
                            "gen_ai.usage.cost": float(end.get("cost_usd", 0.0)),
                            "agentkiln.model_calls": int(end.get("calls", 0))})
    if end.get("status") == "failed":
        root.error = str(end.get("reason") or "failed")
    return root


def _spans(run_id: str, events: list[dict[str, Any]], root: SpanRecord
           ) -> tuple[list[SpanRecord], list[SpanRecord], list[dict[str, Any]]]:
    """(node spans, model and tool spans, events that become span events)."""
    nodes: list[SpanRecord] = []
    open_nodes: dict[str, SpanRecord] = {}
    calls: list[SpanRecord] = []
    points: list[dict[str, Any]] = []
    for event in events:
        kind = event.get("kind")
        if kind == "node.start":
            span = _node_span(run_id, event)
            open_nodes[str(event.get("task"))] = span
            nodes.append(span)
        elif kind in NODE_END_KINDS:
            span = open_nodes.pop(str(event.get("task")), None)
            if span is None:
                span = _node_span(run_id, event, start=float(event["ts"]) - float(event.get("duration_s") or 0))
                nodes.append(span)
            _close_node(span, event)
        elif kind in MODEL_KINDS:
            calls.append(model_span(run_id, event))
        elif kind == "tool.call":
            calls.append(tool_span(run_id, event))
        elif kind not in ("run.start", "run.end"):
            points.append(event)
    for span in open_nodes.values():
        span.end, span.error = root.end, "the node did not finish in this segment"
    return nodes, calls, points


def _node_span(run_id: str, event: dict[str, Any], start: float | None = None) -> SpanRecord:
    node, task = str(event.get("node")), str(event.get("task"))
    return SpanRecord(span_id(run_id, int(event.get("seq", 0))), node,
                      float(event["ts"]) if start is None else start, float(event["ts"]),
                      attributes={"langgraph.node": node, "langgraph.task.id": task}, node_task=task, is_node=True)


def _close_node(span: SpanRecord, event: dict[str, Any]) -> None:
    span.end = float(event["ts"])
    kind = event.get("kind")
    if kind == "node.error":
        span.error = str(event.get("error") or "error")
    elif kind == "node.interrupt":
        span.attributes["langgraph.interrupts"] = _attribute_value(event.get("interrupts"))
    elif event.get("updated"):
        span.attributes["langgraph.updated"] = _attribute_value(event.get("updated"))


def model_span(run_id: str, event: dict[str, Any]) -> SpanRecord:
    """A ``model.call`` (or ``model.error``) as a client span with the GenAI attributes: model, tokens and cost."""
    model = str(event.get("model") or "unknown")
    end = float(event["ts"])
    span = SpanRecord(span_id(run_id, int(event.get("seq", 0))), f"chat {model}",
                      end - float(event.get("latency_s") or 0), end, kind="client", node_task=event.get("node_task"))
    span.attributes = {"gen_ai.operation.name": "chat", "gen_ai.request.model": model,
                       "gen_ai.response.model": model, **_provider(model)}
    if event.get("kind") == "model.error":
        span.error = str(event.get("error") or "model error")
        return span
    span.attributes.update({"gen_ai.usage.input_tokens": int(event.get("prompt_tokens", 0)),
                            "gen_ai.usage.output_tokens": int(event.get("completion_tokens", 0)),
                            "gen_ai.usage.cost": float(event.get("cost_usd", 0.0)),
                            **attributes({k: event.get(k) for k in ("cost_known", "cached", "messages", "tool_calls",
                                                                    "reply_chars")}, "agentkiln.")})
    return span


def _provider(model: str) -> dict[str, str]:
    provider, slash, _name = model.partition("/")
    return {"gen_ai.provider.name": provider} if slash else {}


def tool_span(run_id: str, event: dict[str, Any]) -> SpanRecord:
    """A ``tool.call`` as a span ending at the event, as long as the call took (``seconds`` or ``duration_s``)."""
    tool, end = str(event.get("tool")), float(event["ts"])
    took = float(event.get("seconds") or event.get("duration_s") or 0)
    span = SpanRecord(span_id(run_id, int(event.get("seq", 0))), f"execute_tool {tool}", end - took, end,
                      node_task=event.get("node_task"))
    span.attributes = {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": tool,
                       **attributes({k: v for k, v in event.items() if k != "tool"}, "agentkiln.")}
    if event.get("ok") is False or event.get("error"):
        span.error = str(event.get("error") or "the tool call failed")
    return span


def _node_of(task: str | None, at: float, nodes: list[SpanRecord], root: SpanRecord) -> SpanRecord:
    """The node span of ``task``, else the latest-started node span open at ``at``, else the root."""
    if task:
        for span in nodes:
            if span.node_task == task:
                return span
    return _innermost(nodes, at) or root


def _holder(event: dict[str, Any], nodes: list[SpanRecord], calls: list[SpanRecord]) -> SpanRecord | None:
    """The innermost span open when ``event`` happened, among its own node's spans when it names the node."""
    at, task = float(event["ts"]), event.get("node_task")
    if task:
        own = [span for span in [*nodes, *calls] if span.node_task == task]
        return _innermost([s for s in own if not s.is_node], at) or next((s for s in own if s.is_node), None)
    return _innermost(calls, at) or _innermost(nodes, at)


def _innermost(spans: Iterable[SpanRecord], at: float, slack: float = 1e-3) -> SpanRecord | None:
    open_at = [span for span in spans if span.start - slack <= at <= span.end + slack]
    return max(open_at, key=lambda span: (span.start, -span.end), default=None)
