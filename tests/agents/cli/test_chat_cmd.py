"""`agent chat` stays cheap to import: no LangGraph, litellm, torch or tools until a session starts."""

from __future__ import annotations

import subprocess
import sys


def test_importing_the_command_loads_nothing_heavy():
    code = ("import sys, agents.cli.chat_cmd\n"
            "print(sorted(m for m in ('langgraph', 'litellm', 'torch', 'langchain_core', 'tools.registry') "
            "if m in sys.modules))")
    output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert output.strip() == "[]"


def test_help_lists_the_options(agent_cli):
    result = agent_cli("chat", "--help")
    for option in ("--model", "--repo", "--thread", "--list", "--attach", "--yes", "--tools"):
        assert option in result.out
