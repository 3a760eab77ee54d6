"""The chat-model seam: OpenAI-style messages in, a reply with usage, cost and latency out."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from sandboxes.errors import UserError


@dataclass
class ToolCall:
    """A function call the model asked for."""

    id: str
    name: str
    arguments: dict[str, Any]


@dataclass
class Usage:
    """Token counts for one call."""

    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens


@dataclass
class ChatResponse:
    """One completion: text and/or tool calls, with accounting."""

    content: str
    tool_calls: list[ToolCall] = field(default_factory=list)
    usage: Usage = field(default_factory=Usage)
    cost_usd: float = 0.0
    latency_s: float = 0.0
    model: str = ""
    cost_known: bool = True
    """False when the price table has no entry for the model (cost_usd is then 0)."""
    cached: bool = False
    """True when the reply came from the on-disk response cache (no call was made)."""


class ModelReplyError(Exception):
    """A reply that could not be used (did not parse even after one re-ask)."""


def deliver_text(response: ChatResponse, options: dict[str, Any]) -> ChatResponse:
    """For models that cannot stream: hand the whole text to ``options["on_token"]`` when one is given."""
    on_token = options.get("on_token")
    if on_token is not None and response.content:
        on_token(response.content)
    return response


class ModelRequestError(UserError):
    """The provider refused a request (an HTTP 4xx other than rate limits: bad request, context too long...)."""


class ModelUnavailable(UserError):
    """The model could not be reached even after retrying (rate limits, timeouts, 5xx)."""


class ChatModel(Protocol):
    """Anything that completes a chat: litellm, a replayed recording, or a scripted list."""

    name: str

    def complete(self, messages: list[dict[str, Any]], *, tools: list[dict[str, Any]] | None = None,
                 **options: Any) -> ChatResponse:
        """Return the next assistant reply for OpenAI-format ``messages`` and tool schemas.

        ``options`` may carry sampling settings (``temperature``, ``max_tokens``, ...) and
        ``on_token``: a callable that receives the reply's text as it arrives (models that cannot
        stream call it once with the whole text).
        """
        ...
