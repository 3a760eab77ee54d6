"""The litellm-backed chat model: any provider string, an OpenAI-compatible api_base, tool calls, streaming."""

from __future__ import annotations

import json
import os
import time
from typing import Any, Callable

from sandboxes.errors import UserError
from sandboxes.settings import Config

from agents.runtime.models.base import (ChatResponse, ModelReplyError, ModelRequestError, ModelUnavailable, ToolCall,
                                        Usage)
from agents.runtime.models.providers import UNKNOWN_PROVIDER
from agents.runtime.models.retry import call_with_retries, is_transient

PLACEHOLDER_KEY = "sk-agentkiln-no-key"


def import_litellm() -> Any:
    """Import litellm lazily (it is slow) with its price table read offline and its banners off."""
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    import litellm

    litellm.suppress_debug_info = True
    return litellm


class ModelSettings(Config):
    """How to reach and call one litellm model."""

    name: str
    """Provider-qualified model, e.g. ``openai/gpt-4o-mini``, ``anthropic/claude-haiku-4-5``, ``ollama/llama3``."""
    api_base: str | None = None
    """Base URL of an OpenAI-compatible (or provider) endpoint; a local server needs no API key."""
    timeout_s: float = 120.0
    """Seconds to wait for one reply before the attempt counts as a timeout."""
    retries: int = 4
    """Retries after a rate limit, timeout or 5xx error (0 = fail at once)."""
    retry_base_s: float = 1.0
    """First backoff delay in seconds; each further retry doubles it (with jitter)."""
    retry_max_s: float = 30.0
    """Upper bound of one backoff delay in seconds."""
    temperature: float | None = None
    """Sampling temperature; None keeps the provider's default."""
    max_tokens: int | None = None
    """Cap on tokens per reply; None keeps the provider's default."""


def check_model_spec(name: str, api_base: str | None) -> str:
    """Return the provider of ``name``; raise a one-line UserError for an unknown provider or no credentials."""
    litellm = import_litellm()
    try:
        provider = litellm.get_llm_provider(model=name, api_base=api_base)[1]
    except Exception:
        raise UserError(UNKNOWN_PROVIDER.format(name=name)) from None
    if api_base:
        return provider
    missing = litellm.validate_environment(model=name).get("missing_keys") or []
    if missing:
        raise UserError(f"no credentials for model '{name}': set {' or '.join(missing)} (or pass --api-base)")
    return provider


class LiteLLMModel:
    """A ChatModel over ``litellm.completion`` with retries and price-table cost."""

    def __init__(self, settings: ModelSettings):
        self.settings = settings
        self.name = settings.name
        self.provider = check_model_spec(settings.name, settings.api_base)

    def complete(self, messages: list[dict[str, Any]], *, tools: list[dict[str, Any]] | None = None,
                 on_token: Callable[[str], None] | None = None, **options: Any) -> ChatResponse:
        """One reply; with ``on_token`` the reply is streamed and each text piece is passed to it."""
        litellm = import_litellm()
        kwargs = self._request(messages, tools, options)
        started = time.perf_counter()

        def attempt() -> Any:
            try:
                if on_token is None:
                    return litellm.completion(**kwargs)
                return _stream(litellm, kwargs, on_token)
            except Exception as error:
                translated = _translate(error, self.name)
                if translated is error:
                    raise
                raise translated from error

        try:
            raw = call_with_retries(attempt, retries=self.settings.retries, base_s=self.settings.retry_base_s,
                                    max_s=self.settings.retry_max_s, label=self.name)
        except Exception as error:
            if not is_transient(error):
                raise
            raise ModelUnavailable(f"model '{self.name}' still failing after {self.settings.retries} retries: "
                                   f"{type(error).__name__}: {str(error)[:200]}") from error
        return self._response(litellm, raw, time.perf_counter() - started)

    def _request(self, messages: list[dict[str, Any]], tools: list[dict[str, Any]] | None,
                 options: dict[str, Any]) -> dict[str, Any]:
        settings = self.settings
        kwargs: dict[str, Any] = {"model": self.name, "messages": messages, "timeout": settings.timeout_s,
                                  "num_retries": 0}
        if tools:
            kwargs["tools"] = tools
        if settings.api_base:
            kwargs["api_base"] = settings.api_base
            if not _has_key(self.provider):
                kwargs["api_key"] = PLACEHOLDER_KEY
        for option in ("temperature", "max_tokens"):
            if getattr(settings, option) is not None:
                kwargs[option] = getattr(settings, option)
        kwargs.update(options)
        return kwargs

    def _response(self, litellm: Any, raw: Any, latency_s: float) -> ChatResponse:
        message = raw.choices[0].message
        usage = Usage(int(getattr(raw.usage, "prompt_tokens", 0) or 0),
                      int(getattr(raw.usage, "completion_tokens", 0) or 0)) if raw.usage else Usage()
        cost, known = _cost(litellm, self.name, usage)
        return ChatResponse(content=message.content or "", tool_calls=_tool_calls(message), usage=usage,
                            cost_usd=cost, cost_known=known, latency_s=round(latency_s, 6),
                            model=raw.model or self.name)


def _stream(litellm: Any, kwargs: dict[str, Any], on_token: Callable[[str], None]) -> Any:
    chunks = []
    for chunk in litellm.completion(**kwargs, stream=True, stream_options={"include_usage": True}):
        chunks.append(chunk)
        delta = chunk.choices[0].delta if chunk.choices else None
        if delta is not None and delta.content:
            on_token(delta.content)
    return litellm.stream_chunk_builder(chunks, messages=kwargs["messages"])


def _has_key(provider: str) -> bool:
    return bool(os.environ.get(f"{provider.upper()}_API_KEY"))


def _cost(litellm: Any, name: str, usage: Usage) -> tuple[float, bool]:
    """Cost from litellm's offline price table; (0, False) for a model the table does not know."""
    try:
        prompt, completion = litellm.cost_per_token(model=name, prompt_tokens=usage.prompt_tokens,
                                                    completion_tokens=usage.completion_tokens)
    except Exception:
        return 0.0, False
    return float(prompt + completion), True


def _tool_calls(message: Any) -> list[ToolCall]:
    calls = []
    for call in getattr(message, "tool_calls", None) or []:
        text = call.function.arguments or "{}"
        try:
            arguments = json.loads(text)
        except json.JSONDecodeError as error:
            raise ModelReplyError(f"tool call '{call.function.name}' has arguments that are not JSON: {error}") from None
        calls.append(ToolCall(id=call.id, name=call.function.name, arguments=arguments))
    return calls


PROVIDER_MODULES = ("litellm", "openai", "httpx")
"""Where the exceptions of a provider call come from (anything else is a bug of ours and stays as it is)."""


def _translate(error: Exception, name: str) -> Exception:
    """Turn provider errors the user must fix into one-line UserErrors; leave transient ones as they are."""
    kind = type(error).__name__
    if kind in ("AuthenticationError", "PermissionDeniedError"):
        return UserError(f"model '{name}': the provider rejected the credentials ({kind})")
    if kind == "NotFoundError":
        return UserError(f"model '{name}': the provider does not know this model or endpoint")
    if kind in ("LiteLLMUnknownProvider",) or "LLM Provider NOT provided" in str(error):
        return UserError(f"unknown model provider in '{name}'")
    if is_transient(error) or type(error).__module__.split(".")[0] not in PROVIDER_MODULES:
        return error
    status = getattr(error, "status_code", None)
    detail = " ".join(str(error).split())[:300]
    return ModelRequestError(f"model '{name}' rejected the request ({kind}" + (f", HTTP {status}" if status else "")
                             + f"): {detail}")
