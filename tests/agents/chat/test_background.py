"""/run: an `agent run ...` child process whose events the session follows."""

from __future__ import annotations

import time

import pytest

from agents.chat.background import BackgroundRun, event_line
from agents.runtime.run import Run


def wait_for(predicate, timeout_s=150.0):
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.2)
    return False


def test_background_run_is_followed_to_its_end(isolated_agent_env):
    lines: list[str] = []
    job = BackgroundRun(["run", "demo", "--question", "What is 6 * 7?"], lines.append, isolated_agent_env)
    job.start()
    assert wait_for(lambda: any("process exited" in line for line in lines)), lines
    assert job.run_id and Run.open(job.run_id).status == "finished"
    followed = "\n".join(lines)
    assert f"[{job.run_id}] node.end plan" in followed and f"[{job.run_id}] run.end finished" in followed
    assert "running" not in job.describe() and job.run_id in job.describe()


@pytest.mark.slow
def test_a_command_that_makes_no_run_says_why(isolated_agent_env):
    lines: list[str] = []
    BackgroundRun(["run", "no-such-agent"], lines.append, isolated_agent_env).start()
    assert wait_for(lambda: any("without a run" in line for line in lines)), lines


def test_event_lines_are_compact():
    line = event_line("r1", {"seq": 3, "ts": 1.0, "kind": "node.end", "node": "plan", "duration_s": 0.5})
    assert line == "[r1] node.end plan (0.50s)"
    assert event_line("r1", {"kind": "best", "score": 2}) == "[r1] best score=2"
