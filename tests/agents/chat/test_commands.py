"""Slash commands in an in-process session (stdin from a string): /tools /model /save /help, unknown ones."""

from __future__ import annotations

import io
import json


def test_tools_model_save_help_and_unknown(agent_cli, isolated_agent_env, monkeypatch):
    first = isolated_agent_env / "first.json"
    first.write_text(json.dumps([]))
    second = isolated_agent_env / "second.json"
    second.write_text(json.dumps(["from the second model"]))
    lines = ["/tools", f"/model scripted:{second}", "/model", "hello", "/save notes.md", "/help", "/bogus", "/exit"]
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(lines) + "\n"))
    result = agent_cli("chat", "--model", f"scripted:{first}", "--tools", "sandbox,ahd")
    assert result.code == 0, result.err
    out = result.out
    assert "python_exec" in out and "ahd_evaluate" in out and "ask" in out and "auto" in out  # /tools
    assert f"model: scripted:{second}" in out and "assistant: from the second model" in out  # /model
    saved = (isolated_agent_env / "notes.md").read_text()
    assert "## user\n\nhello" in saved and "from the second model" in saved  # /save
    assert "/undo" in out and "/run" in out  # /help
    assert "unknown command /bogus" in out


def test_policy_from_the_config_file_denies_a_tool(agent_cli, isolated_agent_env, monkeypatch):
    (isolated_agent_env / "agentkiln.toml").write_text('[chat]\npolicy = {python_exec = "deny"}\n')
    script = isolated_agent_env / "s.json"
    script.write_text(json.dumps([{"tool_calls": [{"name": "python_exec", "arguments": {"code": "print(1)"}}]},
                                  "denied, fine"]))
    monkeypatch.setattr("sys.stdin", io.StringIO("run it\n/tools\n/exit\n"))
    result = agent_cli("chat", "--model", f"scripted:{script}", "--tools", "sandbox")
    assert "denied by policy" in result.out and "not run: the chat policy denies this tool" in result.out
    assert "deny" in result.out and "approve?" not in result.out
