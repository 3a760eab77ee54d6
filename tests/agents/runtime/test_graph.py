import json
import operator
from typing import Annotated, TypedDict

import pytest
from langgraph.graph import StateGraph

from sandboxes import telemetry

from agents.runtime.graph import GRAPH_FILE, linear_graph, run_graph
from agents.runtime.run import Run


class State(TypedDict, total=False):
    value: int
    trail: Annotated[list, operator.add]


def three_steps(calls: list[str], fail_at: str | None = None) -> StateGraph:
    def step(name: str):
        def node(state: State) -> State:
            calls.append(name)
            telemetry.emit("inside.node", node=name)
            if name == fail_at:
                raise RuntimeError(f"{name} failed")
            return {"value": state["value"] + 1, "trail": [name]}
        return node

    return linear_graph(State, [(name, step(name)) for name in ("one", "two", "three")])


class Recorder:
    def __init__(self):
        self.updates = []

    def update(self, **fields):
        self.updates.append(fields)


def test_runs_to_the_end_with_node_events_and_progress():
    run, calls, progress = Run.create("g", {}), [], Recorder()
    with run.active():
        state = run_graph(three_steps(calls), run, {"value": 0, "trail": []}, progress=progress)
    assert state == {"value": 3, "trail": ["one", "two", "three"]} and calls == ["one", "two", "three"]
    ends = run.events("node.end")
    assert [e["node"] for e in ends] == ["one", "two", "three"] and ends[0]["updated"] == ["trail", "value"]
    assert len(run.events("inside.node")) == 3, "telemetry from inside nodes reaches the run"
    assert [u["step"] for u in progress.updates] == [1, 2, 3]


def test_resume_continues_after_the_last_finished_node():
    run, calls = Run.create("g", {}), []
    with pytest.raises(RuntimeError, match="two failed"):
        run_graph(three_steps(calls, fail_at="two"), run, {"value": 0, "trail": []})
    assert run.events("node.error")[0]["node"] == "two"
    reopened, again = Run.open(run.id), []
    state = run_graph(three_steps(again), reopened, {"value": 100, "trail": []})
    assert again == ["two", "three"], "finished nodes are not run again"
    assert state == {"value": 3, "trail": ["one", "two", "three"]}
    assert reopened.events("graph.resume")[0]["pending"] == ["two"]


def test_a_finished_graph_is_not_run_again():
    run, calls = Run.create("g", {}), []
    run_graph(three_steps(calls), run, {"value": 0, "trail": []})
    state = run_graph(three_steps(calls), Run.open(run.id), {"value": 0, "trail": []})
    assert calls == ["one", "two", "three"] and state["value"] == 3
    assert len(run.events("graph.already_done")) == 1


def test_events_from_inside_a_node_name_its_task_and_the_compiled_graph_is_saved():
    run, calls = Run.create("g", {}), []
    with run.active():
        run_graph(three_steps(calls), run, {"value": 0, "trail": []})
    starts = {e["node"]: e["task"] for e in run.events("node.start")}
    inside = run.events("inside.node")
    assert [e["node_task"] for e in inside] == [starts[e["node"]] for e in inside]
    assert "node_task" not in run.events("node.start")[0], "the runtime's own events are emitted outside nodes"
    shape = json.loads((run.dir / GRAPH_FILE).read_text())
    assert shape["nodes"] == ["__start__", "one", "two", "three", "__end__"]
    assert {"source": "two", "target": "three", "conditional": False} in shape["edges"]
    assert "one --> two" in shape["mermaid"]
