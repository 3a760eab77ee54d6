"""Structured replies: parse the model's answer, re-ask once with the parse error, then fail cleanly."""

from __future__ import annotations

import json
from typing import Any, Callable, TypeVar

from sandboxes.telemetry import emit

from agents.runtime.models.base import ChatModel, ChatResponse, ModelReplyError
from agents.runtime.models.serialize import assistant_message

T = TypeVar("T")


def reply_text(response: ChatResponse) -> str:
    """The text ``parse`` receives: the content, or for a tool call ``{"tool": name, "arguments": {...}}``."""
    if response.tool_calls:
        call = response.tool_calls[0]
        return json.dumps({"tool": call.name, "arguments": call.arguments})
    return response.content


def complete_parsed(model: ChatModel, messages: list[dict[str, Any]], parse: Callable[[str], T],
                    tools: list[dict[str, Any]] | None = None, **options: Any) -> T:
    """Ask ``model`` and return ``parse(reply_text)``.

    Any exception from ``parse`` counts as a reply that does not parse: the model is asked once more
    with the error appended to the conversation; a second failure raises :class:`ModelReplyError`.
    """
    conversation = list(messages)
    for attempt in (1, 2):  # the second pass either returns or raises
        response = model.complete(conversation, tools=tools, **options)
        try:
            return parse(reply_text(response))
        except Exception as error:  # noqa: BLE001 - whatever parse raises means "unusable reply"
            problem = f"{type(error).__name__}: {error}"
            emit("model.parse_error", attempt=attempt, error=problem)
            if attempt == 2:
                raise ModelReplyError(f"the model's reply did not parse after one re-ask ({problem})") from error
            conversation += [assistant_message(response), *_correction(response, problem)]


def _correction(response: ChatResponse, problem: str) -> list[dict[str, Any]]:
    """The message(s) that tell the model why its reply was unusable."""
    text = f"Your reply could not be used: {problem}. Reply again in the required form."
    if response.tool_calls:
        return [{"role": "tool", "tool_call_id": call.id, "content": text} for call in response.tool_calls]
    return [{"role": "user", "content": text}]
