"""The litellm path over HTTP (streaming, tool output back to the model), resumed threads, no model, --list."""

from __future__ import annotations

import pexpect

from agents.chat.threads import thread_ids
from tests.agents.chat.conftest import PROMPT


def test_litellm_streaming_yes_and_resumed_thread_keeps_history(spawn_chat, fake_openai, isolated_agent_env):
    fake_openai.replies += [
        {"tool_calls": [{"name": "python_exec", "arguments": {"code": "print(sum(range(10)))"}}]},
        "The sum is forty-five, streamed.",
        "You asked me about a sum before.",
    ]
    common = ("--model", "openai/fake-model", "--api-base", fake_openai.url, "--tools", "sandbox",
              "--sandbox", "local")
    chat = spawn_chat(*common, "--yes")
    chat.expect(PROMPT)
    chat.sendline("add the numbers below ten")
    chat.expect("runs at once")  # --yes: a sandboxed call is approved without asking
    chat.expect("45")
    chat.expect("The sum is forty-five, streamed.")
    chat.expect(PROMPT)
    chat.sendline("/exit")
    chat.expect(pexpect.EOF)

    assert all(request.get("stream") for request in fake_openai.requests)
    tool_message = [m for m in fake_openai.requests[1]["messages"] if m["role"] == "tool"][0]
    assert '"stdout": "45\\n"' in tool_message["content"]

    thread = thread_ids()[-1]
    resumed = spawn_chat(*common, "--thread", thread)
    resumed.expect(f"resumed thread {thread}")
    resumed.expect("The sum is forty-five")
    resumed.expect(PROMPT)
    resumed.sendline("what did I ask before?")
    resumed.expect("You asked me about a sum before.")
    resumed.expect(PROMPT)
    resumed.sendline("/exit")
    resumed.expect(pexpect.EOF)

    history = [m.get("content") for m in fake_openai.requests[2]["messages"]]
    assert "add the numbers below ten" in history and "what did I ask before?" in history


def test_no_model_is_one_clear_line(agent_cli, isolated_agent_env):
    result = agent_cli("chat", "--tools", "sandbox")
    assert result.code == 2
    assert result.err.strip().splitlines() == [
        "error: no model is configured: pass --model provider/name (e.g. openai/gpt-4o-mini), set AGENT_MODEL, "
        "or set a provider key such as OPENAI_API_KEY"]
    assert not (isolated_agent_env / "runs").exists()


def test_list_threads(agent_cli, isolated_agent_env, monkeypatch):
    assert "no chat threads yet" in agent_cli("chat", "--list").out
    script = isolated_agent_env / "s.json"
    script.write_text('["hello there"]')
    monkeypatch.setattr("sys.stdin", __import__("io").StringIO("say hello\n/exit\n"))
    assert agent_cli("chat", "--model", f"scripted:{script}", "--tools", "sandbox").code == 0
    listing = agent_cli("chat", "--list").out
    assert thread_ids()[-1] in listing and "say hello" in listing


def test_thread_of_another_agent_is_refused(agent_cli, isolated_agent_env):
    from agents.runtime.run import Run

    other = Run.create("demo", {})
    result = agent_cli("chat", "--model", "scripted:x.json", "--thread", other.id)
    assert result.code == 2 and f"agent chat --attach {other.id}" in result.err
