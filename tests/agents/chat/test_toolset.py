"""The chat's tools: sandbox-run tools (DRC deck runs included) are approved by --yes; host writes still ask."""

from __future__ import annotations

import io
import json

from benchmarks.drc.geometry import Block, compose

from agents.chat.config import ChatConfig
from agents.chat.policy import ApprovalPolicy
from agents.chat.toolset import chat_toolbox

DECK = 'source($input)\nreport("t", $output)\ninput(68, 20).width(0.14.um).output("m1.1", "w")\n'


def test_yes_approves_drc_deck_runs_but_not_layout_rendering():
    toolbox = chat_toolbox(ChatConfig(tools=["drc"]))
    deck, render = toolbox.tools["drc_run_deck"], toolbox.tools["drc_render_layout"]
    assert "sandboxed" in deck.tags and "sandboxed" not in render.tags
    assert ApprovalPolicy(ChatConfig()).mode(deck) == "ask"
    assert ApprovalPolicy(ChatConfig(yes=True)).mode(deck) == "auto"
    assert ApprovalPolicy(ChatConfig(yes=True)).mode(render) == "ask"
    assert ApprovalPolicy(ChatConfig()).reason(deck) == "executes code in the sandbox"


def test_a_drc_deck_run_proposed_in_a_yes_session_runs_without_asking(agent_cli, isolated_agent_env, monkeypatch):
    layout = isolated_agent_env / "narrow.gds"
    layout.write_bytes(compose([Block(note="n").add_box("met1", 0, 0, 100, 1000)], {"met1": (68, 20)}))
    script = isolated_agent_env / "script.json"
    script.write_text(json.dumps([
        {"tool_calls": [{"name": "drc_run_deck", "arguments": {"deck": DECK, "layouts": [str(layout)]}}]},
        "One m1.1 width violation."]))
    monkeypatch.setenv("AGENT_SANDBOX", "local")
    monkeypatch.setattr("sys.stdin", io.StringIO("check the layout\n/exit\n"))
    result = agent_cli("chat", "--model", f"scripted:{script}", "--tools", "drc", "--yes")
    assert result.code == 0, result.err
    assert "runs at once" in result.out and "approve?" not in result.out
    assert '"m1.1": 1' in result.out and "One m1.1 width violation." in result.out
