"""The litellm path over HTTP (streaming, tool output back to the model), resumed threads, no model, --list."""

from __future__ import annotations

import pexpect

from tests.agents.chat.conftest import PROMPT


def test_litellm_streams_over_http_and_tool_output_returns_to_the_model(spawn_chat, fake_openai):
    fake_openai.replies += [
        {"tool_calls": [{"name": "python_exec", "arguments": {"code": "print(sum(range(10)))"}}]},
        "The sum is forty-five, streamed.",
    ]
    chat = spawn_chat("--model", "openai/fake-model", "--api-base", fake_openai.url, "--tools", "sandbox",
                      "--sandbox", "local", "--yes")
    chat.expect(PROMPT)
    chat.sendline("add the numbers below ten")
    chat.expect("runs at once")  # --yes: a sandboxed call is approved without asking
    chat.expect("45")
    chat.expect("assistant: The sum is forty-five, streamed.")
    chat.expect(PROMPT)
    chat.sendline("/exit")
    chat.expect(pexpect.EOF)

    assert len(fake_openai.requests) == 2 and all(request.get("stream") for request in fake_openai.requests)
    assert fake_openai.requests[0]["tools"][0]["function"]["name"] in {"python_exec", "shell_exec",
                                                                        "sandbox_write_file"}
    tool_message = [m for m in fake_openai.requests[1]["messages"] if m["role"] == "tool"][0]
    assert '"stdout": "45\\n"' in tool_message["content"]


def test_no_model_is_one_clear_line(agent_cli, isolated_agent_env):
    result = agent_cli("chat", "--tools", "sandbox")
    assert result.code == 2
    assert result.err.strip().splitlines() == [
        "error: no model is configured: pass --model provider/name (e.g. openai/gpt-4o-mini), set AGENT_MODEL, "
        "or set a provider key such as OPENAI_API_KEY"]
    assert not (isolated_agent_env / "runs").exists()


def test_thread_of_another_agent_is_refused(agent_cli, isolated_agent_env):
    from agents.runtime.run import Run

    other = Run.create("demo", {})
    result = agent_cli("chat", "--model", "scripted:x.json", "--thread", other.id)
    assert result.code == 2 and f"agent chat --attach {other.id}" in result.err
