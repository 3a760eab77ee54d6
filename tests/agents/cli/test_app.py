"""The CLI entry point: loading every command module stays cheap, and user errors are one line."""

from __future__ import annotations

import subprocess
import sys


def test_loading_every_command_imports_no_agent_runtime_heavyweights():
    code = ("import sys, agents.cli.app as app\n"
            "app._load_commands(debug=True)\n"
            "print(sorted(m for m in ('langgraph', 'langchain_core', 'litellm', 'torch') if m in sys.modules))")
    output = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert output.strip() == "[]"


def test_unknown_command_fails_without_a_traceback():
    result = subprocess.run([sys.executable, "-m", "agents.cli.app", "no-such-command"], capture_output=True,
                            text=True)
    assert result.returncode != 0 and "Traceback" not in result.stderr
