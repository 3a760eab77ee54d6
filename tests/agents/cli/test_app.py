"""The CLI entry point: loading every command module stays cheap, and user errors are one line."""

from __future__ import annotations

import subprocess
import sys


def test_loading_every_command_imports_no_agent_runtime_heavyweights(modules_loaded_by):
    statements = "import agents.cli.app as app\napp._load_commands(debug=True)"
    assert modules_loaded_by(statements, ("langgraph", "langchain_core", "litellm", "torch")) == []


def test_unknown_command_fails_without_a_traceback():
    result = subprocess.run([sys.executable, "-m", "agents.cli.app", "no-such-command"], capture_output=True,
                            text=True)
    assert result.returncode != 0 and "Traceback" not in result.stderr
