"""The chat agent as a LangGraph ``StateGraph``: agent → approve → tools → agent.

Approval is part of the graph: ``approve`` pauses through ``interrupt`` for every call whose policy is
``ask``, and ``tools`` runs a call only when the policy says ``auto`` or the recorded decision is the
user's approval. Nothing the model writes (or a tool returns) can produce such a decision.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Annotated, Any, Callable, TypedDict

from tools.base import Tool, render_result

from agents.chat.policy import ApprovalPolicy
from agents.runtime.models.base import ChatModel, ChatResponse

APPROVED = ("approve", "edit")
CANCELLED_TEXT = "cancelled by the user (Ctrl-C) while it was running"


def merge_messages(old: list[dict] | None, new: Any) -> list[dict]:
    """Append new messages; ``{"replace": [...]}`` replaces the whole list (used by /undo)."""
    if isinstance(new, dict) and "replace" in new:
        return list(new["replace"])
    return list(old or []) + list(new or [])


class ChatState(TypedDict, total=False):
    messages: Annotated[list[dict], merge_messages]
    decisions: list[dict]
    cancelled: bool


@dataclass
class ChatEnv:
    """What the nodes use: the current model, the tools, the policy and the session's callbacks."""

    model: Callable[[], ChatModel]
    tools: dict[str, Tool]
    policy: ApprovalPolicy
    emit: Callable[..., Any] = lambda kind, **fields: None
    on_token: Callable[[str], None] | None = None
    result_chars: int = 12_000
    schemas: list[dict] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.schemas = self.schemas or [tool.openai_schema() for tool in self.tools.values()]


def assistant_message(response: ChatResponse) -> dict[str, Any]:
    """A ChatResponse as an OpenAI-format assistant message."""
    message: dict[str, Any] = {"role": "assistant", "content": response.content or None}
    if response.tool_calls:
        message["tool_calls"] = [{"id": call.id, "type": "function",
                                  "function": {"name": call.name, "arguments": json.dumps(call.arguments)}}
                                 for call in response.tool_calls]
    elif message["content"] is None:
        message["content"] = ""
    return message


def pending_calls(state: ChatState) -> list[dict[str, Any]]:
    """The tool calls of the last assistant message: id, name and parsed arguments."""
    messages = state.get("messages") or []
    if not messages or messages[-1].get("role") != "assistant":
        return []
    return [{"id": call["id"], "name": call["function"]["name"],
             "arguments": json.loads(call["function"]["arguments"] or "{}")}
            for call in messages[-1].get("tool_calls") or []]


def check_answer(answer: Any) -> dict[str, Any]:
    """The user's reply to an approval interrupt, normalised; anything unrecognised is a rejection."""
    if not isinstance(answer, dict) or answer.get("action") not in (*APPROVED, "reject"):
        return {"action": "reject", "reason": "unrecognised approval answer"}
    if answer["action"] == "edit" and not isinstance(answer.get("arguments"), dict):
        return {"action": "reject", "reason": "edited arguments were not a JSON object"}
    return answer


def chat_nodes(env: ChatEnv) -> dict[str, Callable[[Any], dict[str, Any]]]:
    """The ``agent``, ``approve`` and ``tools`` nodes over a state holding ChatState's keys (other graphs, such
    as the repair agent's, wire them with nodes of their own)."""
    from langgraph.types import interrupt

    def agent(state: ChatState) -> dict[str, Any]:
        options = {"on_token": env.on_token} if env.on_token else {}
        response = env.model().complete(state["messages"], tools=env.schemas or None, **options)
        return {"messages": [assistant_message(response)], "decisions": [], "cancelled": False}

    def approve(state: ChatState) -> dict[str, Any]:
        decisions = []
        for index, call in enumerate(pending_calls(state)):
            tool = env.tools.get(call["name"])
            mode = env.policy.mode(tool)
            if mode != "ask":
                decisions.append({"action": mode})
                continue
            answer = interrupt({"index": index, "id": call["id"], "name": call["name"], "group": tool.group,
                                "arguments": call["arguments"], "reason": env.policy.reason(tool)})
            decisions.append(check_answer(answer))
        return {"decisions": decisions}

    def tools(state: ChatState) -> dict[str, Any]:
        decisions, messages, cancelled = state.get("decisions") or [], [], False
        for index, call in enumerate(pending_calls(state)):
            decision = decisions[index] if index < len(decisions) else {"action": "missing"}
            if cancelled:
                text = "not run: the user cancelled an earlier call of this turn"
            else:
                text, cancelled = execute_call(env, call, decision)
            messages.append({"role": "tool", "tool_call_id": call["id"], "name": call["name"], "content": text})
        return {"messages": messages, "decisions": [], "cancelled": cancelled}

    return {"agent": agent, "approve": approve, "tools": tools}


def build_chat_graph(env: ChatEnv) -> Any:
    """The uncompiled graph; compile it with a checkpointer (interrupts need one)."""
    from langgraph.graph import END, START, StateGraph

    builder = StateGraph(ChatState)
    for name, node in chat_nodes(env).items():
        builder.add_node(name, node)
    builder.add_edge(START, "agent")
    builder.add_conditional_edges("agent", lambda s: "approve" if pending_calls(s) else END, ["approve", END])
    builder.add_edge("approve", "tools")
    builder.add_conditional_edges("tools", lambda s: END if s.get("cancelled") else "agent", ["agent", END])
    return builder


def execute_call(env: ChatEnv, call: dict[str, Any], decision: dict[str, Any]) -> tuple[str, bool]:
    """Run one call if the policy or the user's decision allows it; (result text, cancelled)."""
    tool = env.tools.get(call["name"])
    mode = env.policy.mode(tool)
    if tool is None:
        return f"error: no tool named {call['name']!r}", False
    if mode == "deny":
        return "not run: the chat policy denies this tool", False
    if mode != "auto" and decision.get("action") not in APPROVED:
        reason = decision.get("reason") or "no reason given"
        env.emit("tool.rejected", tool=tool.name, reason=reason)
        return f"not run: the user rejected this call ({reason})", False
    arguments = decision["arguments"] if decision.get("action") == "edit" else call["arguments"]
    return run_tool(env, tool, arguments, decision.get("action", mode))


def run_tool(env: ChatEnv, tool: Tool, arguments: dict[str, Any], approval: str) -> tuple[str, bool]:
    started = time.perf_counter()
    cancelled, ok = False, True
    try:
        text = render_result(tool.invoke(arguments), env.result_chars)
    except KeyboardInterrupt:
        text, cancelled, ok = CANCELLED_TEXT, True, False
    except Exception as error:  # a failing tool is feedback for the model, not the end of the session
        text, ok = f"error: {type(error).__name__}: {error}", False
    env.emit("tool.call", tool=tool.name, group=tool.group, approval=approval, ok=ok, cancelled=cancelled,
             seconds=round(time.perf_counter() - started, 4), result_chars=len(text))
    return text, cancelled
