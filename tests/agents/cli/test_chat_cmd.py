"""`agent chat` stays cheap to import: no LangGraph, litellm, torch or tools until a session starts."""

from __future__ import annotations



def test_importing_the_command_loads_nothing_heavy(modules_loaded_by):
    heavy = ("langgraph", "litellm", "torch", "langchain_core", "tools.registry")
    assert modules_loaded_by("import agents.cli.chat_cmd", heavy) == []


def test_help_lists_the_options(agent_cli):
    result = agent_cli("chat", "--help")
    for option in ("--model", "--repo", "--thread", "--list", "--attach", "--yes", "--tools"):
        assert option in result.out


def test_help_says_chat_needs_a_model(agent_cli):
    text = " ".join(agent_cli("chat", "--help").out.split())
    assert "offline policy, so without any of these it stops with a message" in text.replace("│ ", "")
    assert "else the agent's offline policy" not in text
