"""Threads: a left thread resumes with its history (the model sees it), and --list shows them."""

from __future__ import annotations

import io

import pexpect

from agents.chat.threads import thread_ids, thread_messages
from agents.runtime.run import Run
from tests.agents.chat.conftest import PROMPT, write_script


def test_resumed_thread_keeps_its_history(spawn_chat, isolated_agent_env):
    first = write_script(isolated_agent_env / "first.json", ["Noted: your favourite number is 17."])
    chat = spawn_chat("--model", first, "--tools", "sandbox")
    chat.expect(PROMPT)
    chat.sendline("my favourite number is 17")
    chat.expect("Noted: your favourite number is 17.")
    chat.expect(PROMPT)
    chat.sendline("/exit")
    chat.expect(pexpect.EOF)
    thread = thread_ids()[-1]

    second = write_script(isolated_agent_env / "second.json", ["It is 17."])
    resumed = spawn_chat("--model", second, "--tools", "sandbox", "--thread", thread[:20])
    resumed.expect(f"resumed thread {thread}")
    resumed.expect("user: my favourite number is 17")
    resumed.expect(PROMPT)
    resumed.sendline("what is my favourite number?")
    resumed.expect("It is 17.")
    resumed.expect(PROMPT)
    resumed.sendline("/exit")
    resumed.expect(pexpect.EOF)

    run = Run.open(thread)
    assert [m["content"] for m in thread_messages(run) if m["role"] != "system"] == [
        "my favourite number is 17", "Noted: your favourite number is 17.", "what is my favourite number?",
        "It is 17."]
    assert [e["messages"] for e in run.events("model.call")] == [2, 4]  # the second call carried the history


def test_list_threads(agent_cli, isolated_agent_env, monkeypatch):
    assert "no chat threads yet" in agent_cli("chat", "--list").out
    script = isolated_agent_env / "s.json"
    script.write_text('["hello there"]')
    monkeypatch.setattr("sys.stdin", io.StringIO("say hello\n/exit\n"))
    assert agent_cli("chat", "--model", f"scripted:{script}", "--tools", "sandbox").code == 0
    listing = agent_cli("chat", "--list").out
    assert thread_ids()[-1] in listing and "say hello" in listing
