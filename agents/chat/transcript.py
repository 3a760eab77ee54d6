"""A thread's messages as Markdown (what /save writes)."""

from __future__ import annotations

from typing import Any


def message_markdown(message: dict[str, Any]) -> str:
    role = message.get("role", "?")
    if role == "tool":
        return f"### result of {message.get('name', 'tool')}\n\n```\n{message.get('content', '')}\n```\n"
    parts = [f"## {role}\n"]
    if message.get("content"):
        parts.append(str(message["content"]) + "\n")
    for call in message.get("tool_calls") or []:
        parts.append(f"tool call `{call['function']['name']}`:\n\n```json\n{call['function']['arguments']}\n```\n")
    return "\n".join(parts)


def transcript_markdown(thread_id: str, messages: list[dict[str, Any]]) -> str:
    body = "\n".join(message_markdown(m) for m in messages if m.get("role") != "system")
    return f"# chat thread {thread_id}\n\n{body}"
