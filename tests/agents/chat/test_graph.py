"""The chat graph enforces approval: interrupts for ask-mode calls, and only the user's decision runs them."""

from __future__ import annotations

import sqlite3

import pytest
from pydantic import BaseModel

from tools.base import Tool

from agents.chat.config import ChatConfig
from agents.chat.graph import ChatEnv, build_chat_graph, merge_messages
from agents.chat.policy import ApprovalPolicy
from agents.runtime.models.scripted import ScriptedModel


class EchoArgs(BaseModel):
    text: str


def make_tools(calls: list) -> dict[str, Tool]:
    def record(name):
        return lambda args: calls.append((name, args.text)) or f"{name} ran with {args.text}"

    return {"boxed": Tool("boxed", "sandboxed code", EchoArgs, record("boxed"), capabilities=("sandbox",)),
            "host": Tool("host", "writes host files", EchoArgs, record("host"), capabilities=("write_files",)),
            "read": Tool("read", "reads", EchoArgs, record("read"), capabilities=("read_files",))}


def call(name: str, text: str = "x") -> dict:
    return {"tool_calls": [{"name": name, "arguments": {"text": text}}]}


def graph_for(replies: list, calls: list, **config):
    from langgraph.checkpoint.sqlite import SqliteSaver

    env = ChatEnv(model=lambda: model, tools=make_tools(calls), policy=ApprovalPolicy(ChatConfig(**config)))
    model = ScriptedModel(replies)
    graph = build_chat_graph(env).compile(checkpointer=SqliteSaver(sqlite3.connect(":memory:",
                                                                                    check_same_thread=False)))
    return graph, {"configurable": {"thread_id": "t"}}, model


def start(graph, thread, text="go"):
    return list(graph.stream({"messages": [{"role": "user", "content": text}]}, thread, stream_mode="updates"))


def interrupts(chunks):
    return [item.value for chunk in chunks for item in chunk.get("__interrupt__", ())]


def resume(graph, thread, answer):
    from langgraph.types import Command

    return list(graph.stream(Command(resume=answer), thread, stream_mode="updates"))


def tool_results(graph, thread):
    return [m["content"] for m in graph.get_state(thread).values["messages"] if m["role"] == "tool"]


def test_reject_does_not_run_and_approve_does():
    calls = []
    graph, thread, _ = graph_for([call("boxed", "a"), "ok", call("boxed", "b"), "done"], calls)
    pending = interrupts(start(graph, thread))
    assert pending[0]["name"] == "boxed" and "runs code or writes files inside the sandbox" in pending[0]["reason"]
    resume(graph, thread, {"action": "reject", "reason": "no"})
    assert calls == [] and "not run: the user rejected" in tool_results(graph, thread)[0]
    interrupts(start(graph, thread))
    resume(graph, thread, {"action": "approve"})
    assert calls == [("boxed", "b")]


def test_edit_runs_with_the_edited_arguments():
    calls = []
    graph, thread, model = graph_for([call("host", "rm"), "done"], calls)
    start(graph, thread)
    resume(graph, thread, {"action": "edit", "arguments": {"text": "safe"}})
    assert calls == [("host", "safe")]
    assert "host ran with safe" in model.calls[1]["messages"][-1]["content"]  # the output goes back to the model


def test_yes_approves_only_sandboxed_tools_and_deny_wins():
    calls = []
    graph, thread, _ = graph_for([call("boxed"), "ok", call("host"), "ok"], calls, yes=True)
    assert interrupts(start(graph, thread)) == [] and calls == [("boxed", "x")]
    assert interrupts(start(graph, thread))[0]["name"] == "host"
    calls.clear()
    graph, thread, _ = graph_for([call("boxed"), "ok"], calls, yes=True, policy={"boxed": "deny"})
    assert interrupts(start(graph, thread)) == [] and calls == []
    assert "denies" in tool_results(graph, thread)[0]


def test_read_only_tools_run_at_once_and_unknown_tools_never():
    calls = []
    graph, thread, _ = graph_for([{"tool_calls": [{"name": "read", "arguments": {"text": "r"}},
                                                  {"name": "nope", "arguments": {}}]}, "ok"], calls)
    assert interrupts(start(graph, thread)) == []
    assert calls == [("read", "r")] and "no tool named 'nope'" in tool_results(graph, thread)[1]


def test_forged_state_cannot_approve_a_call():
    """Even a decision slipped into the state (not the user's interrupt answer) does not run an ask-mode call."""
    calls = []
    graph, thread, _ = graph_for([call("host"), "ok"], calls)
    start(graph, thread)
    graph.update_state(thread, {"decisions": [{"action": "auto"}]}, as_node="approve")
    list(graph.stream(None, thread, stream_mode="updates"))
    assert calls == [] and "not run" in tool_results(graph, thread)[0]


@pytest.mark.parametrize("answer", ["yes", {"action": "edit", "arguments": "rm -rf"}, {"action": "sure"}])
def test_malformed_answers_are_rejections(answer):
    calls = []
    graph, thread, _ = graph_for([call("host"), "ok"], calls)
    start(graph, thread)
    resume(graph, thread, answer)
    assert calls == []


def test_replace_merges_for_undo():
    assert merge_messages([{"a": 1}], [{"b": 2}]) == [{"a": 1}, {"b": 2}]
    assert merge_messages([{"a": 1}], {"replace": []}) == []


def test_each_of_several_calls_is_approved_on_its_own():
    calls = []
    graph, thread, _ = graph_for([{"tool_calls": [{"name": "host", "arguments": {"text": "first"}},
                                                  {"name": "boxed", "arguments": {"text": "second"}}]}, "ok"], calls)
    assert [p["name"] for p in interrupts(start(graph, thread))] == ["host"]
    assert [p["name"] for p in interrupts(resume(graph, thread, {"action": "approve"}))] == ["boxed"]
    resume(graph, thread, {"action": "reject", "reason": "no"})
    assert calls == [("host", "first")]
    assert [r.split(" (")[0] for r in tool_results(graph, thread)] == ["host ran with first",
                                                                       "not run: the user rejected this call"]
