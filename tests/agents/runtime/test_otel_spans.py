"""Events to span records: segments, placement by node task or by time, killed nodes, attribute values."""

from agents.runtime.otel_spans import attributes, build_spans, segments, span_id, trace_id


def event(seq, ts, kind, **fields):
    return {"seq": seq, "ts": ts, "kind": kind, **fields}


KILLED = [event(1, 10.0, "run.start"), event(2, 10.5, "node.start", node="work", task="t1"),
          event(3, 11.0, "sandbox.result", returncode=0),
          event(4, 20.0, "run.start"), event(5, 20.1, "node.start", node="work", task="t2"),
          event(6, 21.0, "node.end", node="work", task="t2", duration_s=0.9, updated=["x"]),
          event(7, 21.1, "run.end", status="finished", prompt_tokens=3, completion_tokens=4, cost_usd=0.5, calls=1)]


def test_a_killed_segment_and_its_resume_are_two_roots_of_one_trace():
    assert [len(part) for part in segments(KILLED)] == [3, 4]
    spans = build_spans("r1", "agent", KILLED)
    roots = [s for s in spans if s.parent_id is None]
    assert [r.attributes["agentkiln.run.status"] for r in roots] == ["unfinished", "finished"]
    assert roots[0].error and roots[1].error is None and roots[1].attributes["gen_ai.usage.cost"] == 0.5
    first, second = [s for s in spans if s.name == "work"]
    assert first.error == "the node did not finish in this segment" and first.end == roots[0].end == 11.0
    assert first.events[0][0] == "sandbox.result" and second.attributes["langgraph.updated"] == ["x"]
    assert trace_id("r1") == trace_id("r1") != trace_id("r2") and span_id("r1", 2) == first.span_id


def test_events_without_a_node_task_go_to_the_latest_started_open_span():
    events = [event(1, 0.0, "run.start"), event(2, 1.0, "node.start", node="a", task="ta"),
              event(3, 2.0, "node.start", node="b", task="tb"), event(4, 3.0, "tool.call", tool="t", seconds=0.5),
              event(5, 2.8, "kernel.evaluate", status="correct"), event(6, 4.0, "node.end", node="b", task="tb"),
              event(7, 4.5, "best", value=2), event(8, 5.0, "node.end", node="a", task="ta"),
              event(9, 6.0, "run.end", status="finished")]
    spans = {s.name: s for s in build_spans("r", "x", events)}
    assert spans["execute_tool t"].parent_id == spans["b"].span_id
    assert spans["execute_tool t"].events[0][0] == "kernel.evaluate", "inside the tool call's time: on the tool span"
    assert [name for name, _, _ in spans["a"].events] == ["best"]


def test_a_node_task_wins_over_time_and_model_errors_are_error_spans():
    events = [event(1, 0.0, "run.start"), event(2, 1.0, "node.start", node="a", task="ta"),
              event(3, 1.1, "node.start", node="b", task="tb"),
              event(4, 2.0, "model.call", model="openai/gpt-4o", prompt_tokens=5, completion_tokens=6, cost_usd=0.1,
                    latency_s=0.5, node_task="ta"),
              event(5, 2.5, "model.error", model="openai/gpt-4o", error="timeout", latency_s=0.2, node_task="tb"),
              event(6, 2.6, "sandbox.result", returncode=1, node_task="ta"),
              event(7, 3.0, "node.end", node="a", task="ta"), event(8, 3.0, "node.end", node="b", task="tb")]
    spans = build_spans("r", "x", events)
    a, b = (next(s for s in spans if s.name == name) for name in "ab")
    call, error = (s for s in spans if s.name == "chat openai/gpt-4o")
    assert call.parent_id == a.span_id and call.kind == "client" and call.start == 1.5
    assert call.attributes["gen_ai.provider.name"] == "openai" and call.attributes["gen_ai.usage.output_tokens"] == 6
    assert error.parent_id == b.span_id and error.error == "timeout"
    assert a.events and a.events[0][2]["returncode"] == 1 and not b.events


def test_attribute_values_are_scalars_homogeneous_lists_or_json():
    flat = attributes({"seq": 1, "a": 1, "b": [1, 2], "c": [1, "x"], "d": {"k": None}, "e": None, "f": "t" * 5000})
    assert flat == {"a": 1, "b": [1, 2], "c": '[1, "x"]', "d": '{"k": null}', "f": "t" * 4000}
