"""Line editing on a real terminal (prompt_toolkit): arrow keys edit the line, Up recalls the last one,
Tab completes slash commands; pipes and TERM=dumb read plain lines."""

from __future__ import annotations

import os
import sys

import pexpect

from agents.chat.lineinput import LineReader, can_edit
from agents.chat.threads import thread_ids, thread_messages
from agents.runtime.run import Run
from tests.agents.chat.conftest import TIMEOUT_S, write_script

LEFT, UP = "\x1b[D", "\x1b[A"
PROMPT = "you>"  # prompt_toolkit draws the trailing space as a cursor move


def test_arrows_edit_up_recalls_and_tab_completes_on_a_terminal(isolated_agent_env):
    script = write_script(isolated_agent_env / "s.json", ["first reply", "second reply"])
    env = {**os.environ, "TERM": "xterm-256color", "PROMPT_TOOLKIT_NO_CPR": "1", "COLUMNS": "200"}
    chat = pexpect.spawn(sys.executable, ["-m", "agents.cli.app", "chat", "--model", script, "--tools", "sandbox"],
                         env=env, cwd=str(isolated_agent_env), encoding="utf-8", timeout=TIMEOUT_S,
                         dimensions=(50, 200))
    try:
        chat.expect(PROMPT)
        chat.send("hell" + LEFT + "X\r")  # the cursor moved left one place: the X lands before the last l
        chat.expect("first reply")
        chat.expect(PROMPT)
        chat.send(UP + "\r")  # the previous line again
        chat.expect("second reply")
        chat.expect(PROMPT)
        chat.send("/he\t")  # Tab completes /help
        chat.expect("lp")
        chat.send("\r")
        chat.expect("/undo")
        chat.expect(PROMPT)
        chat.send("/exit\r")
        chat.expect(pexpect.EOF)
    finally:
        chat.close(force=True)
    [thread] = thread_ids()
    users = [m["content"] for m in thread_messages(Run.open(thread)) if m["role"] == "user"]
    assert users == ["helXl", "helXl"], "no escape codes in the messages"
    history = (isolated_agent_env / "runs" / ".chat_history").read_text().splitlines()
    assert [line[1:] for line in history if line.startswith("+")] == ["helXl", "/help", "/exit"]  # kept for next time


def test_without_a_terminal_lines_are_read_plainly(monkeypatch):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("typed\x1b[D line\n"))
    assert not can_edit()
    assert LineReader(lambda: [], None).read("> ") == "typed\x1b[D line"
