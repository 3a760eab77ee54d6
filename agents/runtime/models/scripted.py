"""Scripted models for tests and examples: a fixed list of replies, served in order."""

from __future__ import annotations

from typing import Any, Callable, Iterable, Union

from sandboxes.errors import UserError

from agents.runtime.models.base import ChatResponse, ToolCall, Usage, deliver_text

Reply = Union[str, ChatResponse, dict, Callable[[list[dict[str, Any]]], Union[str, ChatResponse]]]


class ScriptExhausted(UserError, RuntimeError):
    """More calls than scripted replies (a one-line error on the CLI, a RuntimeError to tests)."""


class ScriptedModel:
    """Serves ``replies`` one per call.

    A reply is a string (assistant text), a ``ChatResponse``, a dict
    ``{"tool_calls": [{"name": ..., "arguments": {...}}], "content": ""}``, or a callable that
    receives the messages and returns one of those (for replies that depend on the prompt).
    Usage is estimated as characters / 4 so that accounting paths are exercised.
    """

    def __init__(self, replies: Iterable[Reply], name: str = "scripted"):
        self.name = name
        self._replies = list(replies)
        self.calls: list[dict[str, Any]] = []

    def complete(self, messages: list[dict[str, Any]], *, tools: list[dict[str, Any]] | None = None,
                 **options: Any) -> ChatResponse:
        if len(self.calls) >= len(self._replies):
            raise ScriptExhausted(f"scripted model '{self.name}' ran out of replies after {len(self.calls)} calls")
        reply = self._replies[len(self.calls)]
        self.calls.append({"messages": messages, "tools": tools, "options": options})
        if callable(reply):
            reply = reply(messages)
        response = _to_response(reply)
        prompt_chars = sum(len(str(m.get("content") or "")) for m in messages)
        response.usage = Usage(prompt_chars // 4 + 1, len(response.content) // 4 + 1)
        response.model = self.name
        return deliver_text(response, options)

    @property
    def remaining(self) -> int:
        return len(self._replies) - len(self.calls)


def _to_response(reply: Any) -> ChatResponse:
    if isinstance(reply, ChatResponse):
        return ChatResponse(reply.content, list(reply.tool_calls))
    if isinstance(reply, str):
        return ChatResponse(content=reply)
    calls = [ToolCall(id=c.get("id", f"call_{i}"), name=c["name"], arguments=dict(c.get("arguments", {})))
             for i, c in enumerate(reply.get("tool_calls", []))]
    return ChatResponse(content=reply.get("content", ""), tool_calls=calls)
