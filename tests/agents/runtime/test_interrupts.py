"""A run paused at a LangGraph interrupt: status, report, `runs show`, and resume with an answer."""

import json
from typing import TypedDict

import pytest
from langgraph.types import interrupt

from benchmarks.report import Report
from sandboxes.errors import UserError

from agents.runtime.graph import linear_graph, run_graph
from agents.runtime.interrupts import (RunPaused, add_guidance, clear_pause_request, parse_answer, pause_requested,
                                       pending_interrupts, question_text, request_pause, run_guidance,
                                       waiting_interrupts)
from agents.runtime.launch import RunOptions, launch, resume
from agents.runtime.registry import register_agent
from agents.runtime.run import Run

QUESTION = {"question": "how many extra steps?", "accepts": {"extra": "an integer"}}


class State(TypedDict, total=False):
    done: list
    extra: int


def gated_graph(executed: list):
    """first -> gate (interrupt) -> last; ``executed`` records every node execution."""
    def first(state):
        executed.append("first")
        return {"done": ["first"]}

    def gate(state):
        executed.append("gate")
        return {"extra": interrupt(QUESTION)["extra"]}

    def last(state):
        executed.append("last")
        return {"done": state["done"] + [f"last+{state['extra']}"]}

    return linear_graph(State, [("first", first), ("gate", gate), ("last", last)])


def gated_agent(executed: list):
    def execute(run, model):
        return Report(summary={"done": run_graph(gated_graph(executed), run, {})["done"]})

    return execute


def test_a_paused_run_says_what_it_asks_and_resumes_with_the_answer():
    executed: list[str] = []
    register_agent("gated", gated_agent(executed))
    run, report = launch("gated", {}, RunOptions(model="offline"))
    assert report.summary["status"] == "paused" and report.summary["interrupts"] == [QUESTION]
    assert f"agent runs resume {run.id} --answer" in report.summary["resume"]
    record = json.loads((run.dir / "status.json").read_text())
    assert record["status"] == "paused" and record["reason"] == "how many extra steps?"
    assert record["interrupts"] == [QUESTION] and pending_interrupts(Run.open(run.id)) == [QUESTION]
    assert [e["node"] for e in run.events("node.interrupt")] == ["gate"]
    assert run.events("graph.paused")[-1]["interrupts"] == [QUESTION]

    again = resume(Run.open(run.id))  # no answer: the interrupt asks again, nothing else runs
    assert again.summary["status"] == "paused" and executed == ["first", "gate", "gate"]

    finished = resume(Run.open(run.id), {"max_calls": 7}, answer={"extra": 3})
    assert finished.summary["done"] == ["first", "last+3"]
    assert executed == ["first", "gate", "gate", "gate", "last"]  # the first node never ran again
    reopened = Run.open(run.id)
    assert reopened.status == "finished" and reopened.runtime["max_calls"] == 7
    assert reopened.events("graph.answer")[-1]["answer"] == {"extra": 3}
    assert not pending_interrupts(reopened)


def test_run_graph_takes_the_answer_directly():
    run, executed = Run.create("direct", {}), []
    with pytest.raises(RunPaused, match="how many extra steps") as paused:
        run_graph(gated_graph(executed), run, {})
    assert paused.value.interrupts == [QUESTION] and paused.value.run_id == run.id
    state = run_graph(gated_graph(executed), Run.open(run.id), {}, resume={"extra": 5})
    assert state == {"done": ["first", "last+5"], "extra": 5} and executed == ["first", "gate", "gate", "last"]


def test_runs_resume_needs_an_answer_for_a_paused_run(agent_cli):
    executed: list[str] = []
    register_agent("gated", gated_agent(executed))
    run, _ = launch("gated", {}, RunOptions(model="offline"))
    shown = agent_cli("runs", "show", run.id)
    assert "paused" in shown.out and "waiting_for" in shown.out and "how many extra steps?" in shown.out
    refused = agent_cli("runs", "resume", run.id)
    assert refused.code == 2 and "--answer JSON" in refused.err
    bad = agent_cli("runs", "resume", run.id, "--answer", "{extra: 2}")
    assert bad.code == 2 and "--answer must be JSON" in bad.err
    done = agent_cli("runs", "resume", run.id, "--answer", '{"extra": 2}')
    assert done.code == 0, done.err
    assert Run.open(run.id).read_report().summary["done"] == ["first", "last+2"]


def test_pause_requests_and_question_text():
    run = Run.create("asked", {})
    assert not pause_requested(run)
    request_pause(run, by="test")
    assert pause_requested(run) and run.events("pause.requested")[-1]["by"] == "test"
    clear_pause_request(run)
    assert not pause_requested(run)
    assert question_text([QUESTION, {"other": 1}]) == 'how many extra steps?; {"other": 1}'
    with pytest.raises(UserError, match="must be JSON"):
        parse_answer("nope")


def test_a_run_paused_through_a_child_waits_on_what_its_status_records():
    run = Run.create("parent", {})
    assert waiting_interrupts(run) == []
    run.set_status("paused", "the child asks", interrupts=[QUESTION])
    assert waiting_interrupts(Run.open(run.id)) == [QUESTION]
    run.set_status("failed", "later")
    assert waiting_interrupts(Run.open(run.id)) == []


def test_guidance_is_kept_in_the_config_in_order_with_who_gave_it(tmp_path):
    run = Run.create("demo", {}, root=tmp_path)
    add_guidance(run, "use two buffers", by="chat")
    add_guidance(Run.open(run.id, tmp_path), "tile 4096", by="answer")
    reopened = Run.open(run.id, tmp_path)
    assert run_guidance(reopened) == ["use two buffers", "tile 4096"]
    assert [(e["text"], e["by"]) for e in reopened.events("guidance")] == [("use two buffers", "chat"),
                                                                          ("tile 4096", "answer")]
