"""OpenTelemetry export of real runs to an OTLP/HTTP receiver started by the test, which decodes the protobuf."""

import json
import operator
from typing import Annotated, TypedDict

import pytest

pytest.importorskip("opentelemetry.exporter.otlp.proto.http",
                    reason='needs the OTLP exporter: pip install -e ".[ui]"')

from langgraph.graph import END, START, StateGraph  # noqa: E402
from langgraph.types import Send  # noqa: E402

from agents.runtime.graph import run_graph  # noqa: E402
from agents.runtime.otel_spans import span_id, trace_id  # noqa: E402
from agents.runtime.run import Run, list_run_ids  # noqa: E402
from sandboxes.select import get_sandbox  # noqa: E402
from tests.fakes.otlp_receiver import OtlpReceiver  # noqa: E402

CALC = {"tool_calls": [{"id": "call_1", "name": "calculator", "arguments": {"expression": "17 * 23 + 4"}}]}


@pytest.fixture
def replies(tmp_path):
    path = tmp_path / "replies.json"
    path.write_text(json.dumps([CALC]))
    return path


def by_name(spans):
    return {span["name"]: span for span in spans}


def test_a_run_exports_a_trace_with_node_model_and_tool_spans(agent_cli, replies):
    with OtlpReceiver() as receiver:
        result = agent_cli("run", "demo", "--model", f"scripted:{replies}", "--otel", receiver.url)
    assert result.code == 0, result.err
    run = Run.open(list_run_ids()[-1])
    spans = receiver.spans()
    assert receiver.paths == ["/v1/traces"] and len(spans) == 5
    named = by_name(spans)
    root, plan, act = named["invoke_agent demo"], named["plan"], named["act"]
    model, tool = named[f"chat scripted:{replies}"], named["execute_tool calculator"]
    assert {span["trace_id"] for span in spans} == {f"{trace_id(run.id):032x}"}
    assert root["parent_id"] is None and plan["parent_id"] == act["parent_id"] == root["span_id"]
    assert model["parent_id"] == plan["span_id"] and tool["parent_id"] == act["span_id"]
    assert root["attributes"]["gen_ai.agent.name"] == "demo" and root["attributes"]["agentkiln.run.status"] == "finished"
    assert model["attributes"]["gen_ai.operation.name"] == "chat"
    assert model["attributes"]["gen_ai.request.model"] == f"scripted:{replies}"
    call = run.events("model.call")[0]
    assert model["attributes"]["gen_ai.usage.input_tokens"] == call["prompt_tokens"] > 0
    assert model["attributes"]["gen_ai.usage.output_tokens"] == call["completion_tokens"] > 0
    assert model["attributes"]["gen_ai.usage.cost"] == call["cost_usd"]
    assert model["kind"] == 3, "a model call is a CLIENT span"
    assert tool["attributes"]["gen_ai.tool.name"] == "calculator" and tool["attributes"]["agentkiln.result"] == 395
    assert plan["start_ns"] <= model["start_ns"] <= model["end_ns"] <= plan["end_ns"]
    assert root["start_ns"] <= plan["start_ns"] and act["end_ns"] <= root["end_ns"]
    assert run.events("otel.exported")[0]["spans"] == 5


def test_each_segment_exports_at_its_end_and_a_later_export_sends_the_same_ids(agent_cli, replies, monkeypatch):
    with OtlpReceiver() as live, OtlpReceiver() as later:
        monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", live.url)
        stopped = agent_cli("run", "demo", "--model", f"scripted:{replies}", "--max-calls", "0")
        assert stopped.code == 3, stopped.err
        run_id = list_run_ids()[-1]
        assert agent_cli("runs", "resume", run_id, "--max-calls", "5").code == 0
        monkeypatch.delenv("OTEL_EXPORTER_OTLP_ENDPOINT")
        exported = agent_cli("runs", "otel", run_id, "--endpoint", later.url + "/v1/traces")
        assert exported.code == 0, exported.err
    roots = [span for span in live.spans() if span["parent_id"] is None]
    assert len(live.requests) == 2 and [r["attributes"]["agentkiln.run.status"] for r in roots] == ["stopped", "finished"]
    assert {span["trace_id"] for span in live.spans()} == {f"{trace_id(run_id):032x}"}
    assert sorted(s["span_id"] for s in later.spans()) == sorted(s["span_id"] for s in live.spans())
    assert f"{len(later.spans())} spans sent" in exported.out
    failed = [span for span in live.spans() if span["name"] == "plan" and span["status"] == 2]
    assert failed and "budget" in failed[0]["status_message"], "the node the budget stopped is an error span"


class FanState(TypedDict, total=False):
    done: Annotated[list, operator.add]


def probe(unit: dict) -> FanState:
    """One fanned-out node: a real sandbox command (its ``sandbox.result`` event is emitted inside the node)."""
    result = get_sandbox("local").run(["python3", "-c", f"print({unit['n']})"])
    return {"done": [result.stdout.strip()]}


def fan_out_graph() -> StateGraph:
    builder = StateGraph(FanState)
    builder.add_node("probe", probe)
    builder.add_conditional_edges(START, lambda _s: [Send("probe", {"n": n}) for n in (1, 2)], ["probe"])
    builder.add_edge("probe", END)
    return builder


@pytest.mark.bwrap
def test_sandbox_results_are_span_events_of_the_node_that_ran_them(monkeypatch):
    with OtlpReceiver() as receiver:
        monkeypatch.setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", receiver.url + "/v1/traces")
        run = Run.create("fan", {})
        with run.active():
            state = run_graph(fan_out_graph(), run, {"done": []}, max_concurrency=4)
    assert sorted(state["done"]) == ["1", "2"]
    probes = [span for span in receiver.spans() if span["name"] == "probe"]
    tasks = {e["node_task"] for e in run.events("sandbox.result")}
    assert len(probes) == 2 and tasks == {p["attributes"]["langgraph.task.id"] for p in probes}
    for span in probes:
        own = [e for e in run.events("sandbox.result") if e["node_task"] == span["attributes"]["langgraph.task.id"]]
        events = [e for e in span["events"] if e["name"] == "sandbox.result"]
        assert len(events) == len(own) >= 1, "each node's sandbox runs are events of that node's span, not the other's"
        assert all(e["attributes"]["returncode"] == 0 and e["attributes"]["backend"] == "local" for e in events)
        assert all(span["start_ns"] <= e["time_ns"] <= span["end_ns"] for e in events)
    start = run.events("node.start")[0]
    assert any(s["span_id"] == f"{span_id(run.id, start['seq']):016x}" for s in probes)


def test_a_receiver_that_refuses_is_one_line_and_never_fails_the_run(agent_cli, replies):
    with OtlpReceiver(status=400) as receiver:
        result = agent_cli("run", "demo", "--model", f"scripted:{replies}", "--otel", receiver.url)
        assert result.code == 0 and "was not exported to OpenTelemetry" in result.err
        again = agent_cli("runs", "otel", "last", "--endpoint", receiver.url)
    assert again.code == 2 and "did not accept" in again.err and len(again.err.strip().splitlines()) == 1


def test_bad_endpoints_are_refused_before_anything_runs(agent_cli):
    result = agent_cli("run", "demo", "--otel", "localhost:4318")
    assert result.code == 2 and "OTLP/HTTP receiver" in result.err and list_run_ids() == []
    assert agent_cli("runs", "otel", "last").code == 2
