"""--attach: a run's state and events, questions about it, and budget/guidance/resume when it is paused."""

from __future__ import annotations

import io
import json
import time

from agents.chat.attach import is_paused, run_state
from agents.chat.steer import parse_budget
from agents.chat.threads import thread_ids, thread_messages
from agents.runtime.launch import RunOptions, launch
from agents.runtime.registry import register_agent
from agents.runtime.run import Run


def stopped_demo_run(tmp_path):
    """A demo run stopped by its budget before its only model call."""
    from agents.demo.graph import execute

    register_agent("demo", execute)
    script = tmp_path / "demo.json"
    script.write_text(json.dumps([{"tool_calls": [{"name": "calculator", "arguments": {"expression": "6 * 7"}}]}]))
    run, report = launch("demo", {"question": "What is 6 * 7?"},
                         RunOptions(model=f"scripted:{script}", max_calls=0))
    assert run.status == "stopped"
    return run


def test_attach_shows_state_answers_and_steers_a_paused_run(agent_cli, isolated_agent_env, monkeypatch):
    target = stopped_demo_run(isolated_agent_env)
    chat_script = isolated_agent_env / "chat.json"
    chat_script.write_text(json.dumps([{"tool_calls": [{"name": "run_state", "arguments": {}}]},
                                       "It stopped because its call budget was spent."]))
    lines = ["/status", "/budget --max-calls 5", "/guide use the calculator", "why did it stop?", "/resume", "/exit"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    result = agent_cli("chat", "--attach", target.id, "--model", f"scripted:{chat_script}", "--tools", "sandbox")
    assert result.code == 0, result.err
    assert "stopped" in result.out and "call budget spent" in result.out
    assert "It stopped because its call budget was spent." in result.out

    reopened = Run.open(target.id)
    assert reopened.runtime["max_calls"] == 5 and reopened.meta["guidance"] == ["use the calculator"]
    assert [e["text"] for e in reopened.events("guidance")] == ["use the calculator"]
    thread = Run.open(thread_ids()[-1])
    assert thread.meta["attached_to"] == target.id
    system = thread_messages(thread)[0]["content"]
    assert target.id in system and "budget.exceeded" in system

    deadline = time.monotonic() + 150  # /resume continues it in the background with the new budget
    while Run.open(target.id).status != "finished" and time.monotonic() < deadline:
        time.sleep(0.5)
    assert Run.open(target.id).status == "finished"
    assert not is_paused(Run.open(target.id))


def test_budget_and_guidance_need_a_paused_run(agent_cli, isolated_agent_env, monkeypatch):
    run = Run.create("demo", {})
    run.set_status("finished")
    script = isolated_agent_env / "s.json"
    script.write_text("[]")
    monkeypatch.setattr("sys.stdin", io.StringIO("/budget --max-calls 3\n/exit\n"))
    result = agent_cli("chat", "--attach", run.id, "--model", f"scripted:{script}", "--tools", "sandbox")
    assert "apply to a paused run" in result.out
    assert run_state(Run.open(run.id))["budget"]["max_calls"] is None


def test_parse_budget():
    assert parse_budget("--max-cost-usd 1.5 --max-calls 4") == {"max_cost_usd": 1.5, "max_calls": 4}
    assert parse_budget("--attempts 6") == {"budget": 6}
    for bad in ("--max-calls", "--max-calls x", "--speed 3", "--max-calls -1", "--max-cost-usd -0.5", "--attempts 0"):
        try:
            parse_budget(bad)
        except Exception as error:
            assert any(word in str(error) for word in ("budget", "number", "unknown", "must be"))
        else:
            raise AssertionError(bad)


def test_a_run_waiting_at_a_langgraph_interrupt_is_paused(isolated_agent_env):
    from typing import TypedDict

    import pytest
    from langgraph.types import interrupt

    from agents.runtime.graph import linear_graph, run_graph
    from agents.runtime.interrupts import RunPaused

    class State(TypedDict, total=False):
        answer: str

    run = Run.create("waiter", {})
    run.set_status("running")
    builder = linear_graph(State, [("ask", lambda state: {"answer": interrupt({"question": "more budget?"})})])
    with pytest.raises(RunPaused, match="more budget"):
        run_graph(builder, run, {})
    assert run_state(run)["pending_interrupts"] == [{"question": "more budget?"}]
    assert is_paused(run)
