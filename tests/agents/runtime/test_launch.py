import json

from typing import TypedDict

import pytest

from benchmarks.report import Report

from agents.runtime.graph import linear_graph, run_graph
from agents.runtime.launch import RunOptions, launch, resume
from agents.runtime.registry import register_agent
from agents.runtime.run import Run


class State(TypedDict, total=False):
    answers: list


def asking_agent(run, model):
    """Three nodes, each asks the model once."""
    def ask(index):
        def node(state):
            reply = model.complete([{"role": "user", "content": f"question {index}"}]).content
            return {"answers": state.get("answers", []) + [reply]}
        return node

    builder = linear_graph(State, [(f"ask{index}", ask(index)) for index in range(3)])
    state = run_graph(builder, run, {"answers": []})
    return Report(summary={"answers": state["answers"], "best": len(state["answers"])})


register_agent("asker", asking_agent)


@pytest.fixture
def replies(tmp_path):
    path = tmp_path / "replies.json"
    path.write_text(json.dumps(["a", "b", "c"]))
    return f"scripted:{path}"


def test_launch_wraps_the_model_and_writes_the_report(replies, tmp_path):
    options = RunOptions(model=replies, record=str(tmp_path / "rec.jsonl"))
    run, report = launch("asker", {"n": 3}, options)
    assert report.summary["answers"] == ["a", "b", "c"]
    assert run.status == "finished" and run.meta["model"] == replies
    assert len(run.events("model.call")) == 3 and len((tmp_path / "rec.jsonl").read_text().splitlines()) == 3
    assert Run.open(run.id).read_report().summary["best"] == 3


def test_budget_stops_cleanly_and_resume_with_more_budget_finishes(tmp_path):
    recording = tmp_path / "rec.jsonl"
    launch("asker", {}, RunOptions(model=_scripted(tmp_path, ["a", "b", "c"]), record=str(recording)))
    run, report = launch("asker", {}, RunOptions(model=f"replay:{recording}", max_calls=2))
    assert report.summary["status"] == "stopped" and "call budget" in report.summary["reason"]
    assert run.status == "stopped" and report.summary["calls"] == 2
    finished = resume(Run.open(run.id), {"max_calls": 5})
    assert finished.summary["answers"] == ["a", "b", "c"]
    assert [e["node"] for e in run.events("node.end")] == ["ask0", "ask1", "ask2"]
    assert len(run.events("model.call")) == 3 and Run.open(run.id).status == "finished"


def _scripted(tmp_path, replies):
    path = tmp_path / "more.json"
    path.write_text(json.dumps(replies))
    return f"scripted:{path}"
