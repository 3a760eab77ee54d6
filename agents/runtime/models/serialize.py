"""Requests and replies as plain JSON: the key of a request, and replies to and from dicts."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict
from typing import Any

from agents.runtime.models.base import ChatResponse, ToolCall, Usage

# Options that change what a model answers; anything else (callbacks, timeouts) is not part of the key.
KEY_OPTIONS = ("temperature", "max_tokens", "top_p", "seed", "stop", "response_format", "tool_choice")


def request_dict(messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None,
                 options: dict[str, Any]) -> dict[str, Any]:
    """The parts of a request that decide the reply (the model aside)."""
    kept = {k: options[k] for k in KEY_OPTIONS if options.get(k) is not None}
    return {"messages": messages, "tools": tools or [], "options": kept}


def request_key(request: dict[str, Any]) -> str:
    """A stable hash of a request (sorted-key JSON, SHA-256)."""
    text = json.dumps(request, sort_keys=True, default=str, ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()


def response_to_dict(response: ChatResponse) -> dict[str, Any]:
    return asdict(response)


def response_from_dict(data: dict[str, Any]) -> ChatResponse:
    calls = [ToolCall(id=c["id"], name=c["name"], arguments=dict(c.get("arguments") or {}))
             for c in data.get("tool_calls") or []]
    usage = Usage(**(data.get("usage") or {}))
    fields = {k: data[k] for k in ("cost_usd", "latency_s", "model", "cost_known", "cached") if k in data}
    return ChatResponse(content=data.get("content") or "", tool_calls=calls, usage=usage, **fields)


def assistant_message(response: ChatResponse) -> dict[str, Any]:
    """The OpenAI-format assistant message for ``response`` (to append to a conversation)."""
    message: dict[str, Any] = {"role": "assistant", "content": response.content or ""}
    if response.tool_calls:
        message["tool_calls"] = [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": json.dumps(c.arguments)}}
            for c in response.tool_calls]
    return message
