"""The numerics tools reach the agents: a scripted-model chat calls them through the chat graph."""

from __future__ import annotations

import json
import sqlite3

from agents.chat.config import ChatConfig
from agents.chat.graph import ChatEnv, build_chat_graph
from agents.chat.policy import ApprovalPolicy
from agents.chat.toolset import chat_toolbox
from agents.runtime.models.scripted import ScriptedModel


def test_scripted_chat_solves_a_pde_and_runs_bred_with_the_numerics_tools():
    from langgraph.checkpoint.sqlite import SqliteSaver

    toolbox = chat_toolbox(ChatConfig(tools=["numerics"]))
    assert {"solve_pde", "decentralized_optimize", "recommend_sae_l0"} <= set(toolbox.tools)
    pde = {"equation": "diff(u,t) - diff(u,x,2)", "domain": {"x": [0, "pi"], "t": [0, 1]},
           "conditions": [{"variable": "t", "at": 0, "value": "sin(x)"}], "ansatz": {"terms": 1}}
    bred = {"nodes": 8, "methods": ["dsgd", "bred"], "iterations": 400, "seed": 2}
    model = ScriptedModel([{"tool_calls": [{"name": "solve_pde", "arguments": pde}]},
                           {"tool_calls": [{"name": "decentralized_optimize", "arguments": bred}]},
                           "u = exp(-t) sin(x); BRED reaches the optimum, DSGD does not."])
    env = ChatEnv(model=lambda: model, tools=toolbox.tools, policy=ApprovalPolicy(ChatConfig()))
    graph = build_chat_graph(env).compile(
        checkpointer=SqliteSaver(sqlite3.connect(":memory:", check_same_thread=False)))
    thread = {"configurable": {"thread_id": "numerics"}}
    list(graph.stream({"messages": [{"role": "user", "content": "solve and compare"}]}, thread))
    messages = graph.get_state(thread).values["messages"]
    results = [m["content"] for m in messages if m["role"] == "tool"]
    assert json.loads(results[0])["solution"]["u"] == "exp(-t)*sin(x)"
    errors = json.loads(results[1])["final_error"]
    assert errors["bred"] < 1e-8 < errors["dsgd"]
    # the tool results went back to the model before its final answer
    assert "exp(-t)*sin(x)" in json.dumps(model.calls[1]["messages"])
    assert messages[-1]["content"].startswith("u = exp(-t) sin(x)")
