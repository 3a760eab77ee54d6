"""Drive `agent chat` through a pseudo-terminal (pexpect) in an isolated runs directory."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pexpect
import pytest

PROMPT = "you> "
APPROVE = r"approve\? \[y\]es / \[e\]dit / \[n\]o > "
TIMEOUT_S = 180  # the test machine is heavily loaded: start-up alone can take 20 s


def write_script(path: Path, replies: list) -> str:
    path.write_text(json.dumps(replies))
    return f"scripted:{path}"


@pytest.fixture
def spawn_chat(isolated_agent_env):
    """``spawn_chat(*args)`` starts `agent chat ARGS` on a pty; every child is closed after the test."""
    children = []

    def spawn(*args: str) -> pexpect.spawn:
        env = {**os.environ, "COLUMNS": "200", "TERM": "dumb", "PYTHONUNBUFFERED": "1"}
        child = pexpect.spawn(sys.executable, ["-m", "agents.cli.app", "chat", *args], env=env,
                              cwd=str(isolated_agent_env), encoding="utf-8", timeout=TIMEOUT_S,
                              dimensions=(50, 200))
        children.append(child)
        return child

    yield spawn
    for child in children:
        child.close(force=True)
