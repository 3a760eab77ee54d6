"""The chat's tools: sandbox-run tools (DRC deck runs included) are approved by --yes; host writes still ask."""

from __future__ import annotations

import io
import json

import pytest

from benchmarks.drc.geometry import Block, compose

from agents.chat.config import ChatConfig
from agents.chat.policy import ApprovalPolicy
from agents.chat.toolset import chat_toolbox

DECK = 'source($input)\nreport("t", $output)\ninput(68, 20).width(0.14.um).output("m1.1", "w")\n'


def test_yes_approves_drc_deck_runs_but_not_layout_rendering():
    toolbox = chat_toolbox(ChatConfig(tools=["drc"]))
    deck, render = toolbox.tools["drc_run_deck"], toolbox.tools["drc_render_layout"]
    assert deck.sandboxed and not render.sandboxed
    assert ApprovalPolicy(ChatConfig()).mode(deck) == "ask"
    assert ApprovalPolicy(ChatConfig(yes=True)).mode(deck) == "auto"
    assert ApprovalPolicy(ChatConfig(yes=True)).mode(render) == "ask"
    assert ApprovalPolicy(ChatConfig()).reason(deck) == "runs code or writes files inside the sandbox"


@pytest.mark.klayout
def test_a_drc_deck_run_proposed_in_a_yes_session_runs_without_asking(agent_cli, isolated_agent_env, monkeypatch):
    layout = isolated_agent_env / "narrow.gds"
    layout.write_bytes(compose([Block(note="n").add_box("met1", 0, 0, 100, 1000)], {"met1": (68, 20)}))
    script = isolated_agent_env / "script.json"
    script.write_text(json.dumps([
        {"tool_calls": [{"name": "drc_run_deck", "arguments": {"deck": DECK, "layouts": [str(layout)]}}]},
        "One m1.1 width violation."]))
    monkeypatch.setenv("AGENT_SANDBOX", "local")
    monkeypatch.setenv("AGENT_CHAT_WORKDIR", str(isolated_agent_env))
    monkeypatch.setattr("sys.stdin", io.StringIO("check the layout\n/exit\n"))
    result = agent_cli("chat", "--model", f"scripted:{script}", "--tools", "drc", "--yes")
    assert result.code == 0, result.err
    assert "runs at once" in result.out and "approve?" not in result.out
    assert '"m1.1": 1' in result.out and "One m1.1 width violation." in result.out


EVERY_TOOL = {  # name: (mode, mode with --yes); a new tool must be added here, with the mode its capabilities give
    "python_exec": ("ask", "auto"), "shell_exec": ("ask", "auto"), "sandbox_write_file": ("ask", "auto"),
    "kernel_list_tasks": ("auto", "auto"), "kernel_show_task": ("auto", "auto"), "kernel_check": ("ask", "auto"),
    "kernel_benchmark": ("ask", "auto"), "npu_profile": ("ask", "auto"),
    "search_node": ("auto", "auto"), "fetch_node": ("auto", "auto"), "explore_rpg": ("auto", "auto"),
    "drc_run_deck": ("ask", "auto"), "drc_render_layout": ("ask", "ask"),
    "ahd_describe_problem": ("auto", "auto"), "ahd_evaluate": ("ask", "auto"),
    "solve_pde": ("auto", "auto"), "decentralized_optimize": ("auto", "auto"), "recommend_sae_l0": ("auto", "auto"),
    "cheap2rich_reconstruct": ("auto", "auto"), "continuous_control_regret": ("auto", "auto"),
    "solar_learn": ("auto", "auto"), "replicable_rl_trials": ("auto", "auto"),
    "epsvec_generate": ("auto", "auto"),
    "compression_prune": ("ask", "ask"), "compression_store_sparse": ("auto", "auto"),
    "compression_lowrank": ("ask", "ask"), "compression_quantise": ("ask", "ask"),
    "compression_perplexity": ("auto", "auto"), "compression_layer_error": ("auto", "auto"),
    "run_state": ("auto", "auto"), "run_events": ("auto", "auto"), "run_report": ("auto", "auto"),
}


def test_every_tool_a_chat_can_offer_declares_capabilities_and_has_the_listed_mode(isolated_agent_env):
    from agents.chat.attach import attach_tools
    from agents.runtime.run import Run

    (isolated_agent_env / "repo").mkdir()
    (isolated_agent_env / "repo" / "shop.py").write_text("def total(items):\n    return sum(items)\n")
    toolbox = chat_toolbox(ChatConfig(repo=str(isolated_agent_env / "repo")), isolated_agent_env / "work")
    toolbox.extend(attach_tools(Run.create("demo", {})))
    assert toolbox.unavailable == {}
    assert [name for name, tool in toolbox.tools.items() if tool.capabilities is None] == []
    asking, trusting = ApprovalPolicy(ChatConfig()), ApprovalPolicy(ChatConfig(yes=True))
    modes = {name: (asking.mode(tool), trusting.mode(tool)) for name, tool in toolbox.tools.items()}
    assert modes == EVERY_TOOL
