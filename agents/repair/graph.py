"""The repair agent as a LangGraph graph on chat's nodes: agent → approve → tools → agent, until the model
calls ``submit``, stops calling tools, or uses its turns; then ``finish`` takes the worktree's diff.

Approval is chat's own ``approve`` node: a writing call pauses the run (``interrupt``) unless the policy
approves sandboxed calls (``--yes``); nothing the model writes can approve it."""

from __future__ import annotations

from typing import Any

from langgraph.graph import END, START, StateGraph

from agents.chat.graph import ChatEnv, ChatState, chat_nodes, pending_calls
from agents.repair.tools import SUBMITTED
from agents.repair.worktree import Worktree


class RepairState(ChatState, total=False):
    patch: str
    """The submitted diff (set by ``finish``)."""
    ended: str
    """Why the loop ended: submitted, no tool call, out of turns, cancelled."""


def submitted(state: RepairState) -> bool:
    """True when the last tool round ran ``submit``."""
    for message in reversed(state.get("messages") or []):
        if message.get("role") != "tool":
            return False
        if message.get("name") == "submit" and str(message.get("content", "")).startswith(SUBMITTED):
            return True
    return False


def turns(state: RepairState) -> int:
    return sum(message.get("role") == "assistant" for message in state.get("messages") or [])


def why_ended(state: RepairState, max_steps: int) -> str | None:
    """Why the loop stops after a tool round (None: it goes on)."""
    if state.get("cancelled"):
        return "cancelled"
    if submitted(state):
        return "submitted"
    return "out of turns" if turns(state) >= max_steps else None


def build_repair_graph(env: ChatEnv, tree: Worktree, max_steps: int) -> StateGraph:
    """The uncompiled graph (compile it with the run's checkpointer: approvals interrupt)."""
    def finish(state: RepairState) -> dict[str, Any]:
        ended = why_ended(state, max_steps) or "no tool call"
        return {"patch": tree.diff(), "ended": ended}

    builder = StateGraph(RepairState)
    for name, node in chat_nodes(env).items():
        builder.add_node(name, node)
    builder.add_node("finish", finish)
    builder.add_edge(START, "agent")
    builder.add_conditional_edges("agent", lambda s: "approve" if pending_calls(s) else "finish",
                                  ["approve", "finish"])
    builder.add_edge("approve", "tools")
    builder.add_conditional_edges("tools", lambda s: "finish" if why_ended(s, max_steps) else "agent",
                                  ["agent", "finish"])
    builder.add_edge("finish", END)
    return builder
