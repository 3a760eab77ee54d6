"""An on-disk response cache keyed by the model and the request."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from agents.runtime.models.base import ChatModel, ChatResponse, Usage, deliver_text
from agents.runtime.models.serialize import request_dict, request_key, response_from_dict, response_to_dict

CACHE_DIR_ENV = "AGENT_CACHE_DIR"


def default_cache_dir() -> Path:
    """``$AGENT_CACHE_DIR``, else ``~/.cache/agentkiln/responses``."""
    return Path(os.environ.get(CACHE_DIR_ENV) or Path.home() / ".cache" / "agentkiln" / "responses")


class CachedModel:
    """Answers a request seen before from disk (no call, no cost); otherwise asks ``model`` and stores the reply."""

    def __init__(self, model: ChatModel, directory: str | Path | None = None):
        self.model = model
        self.name = model.name
        self.directory = Path(directory) if directory else default_cache_dir()

    def complete(self, messages: list[dict[str, Any]], *, tools: list[dict[str, Any]] | None = None,
                 **options: Any) -> ChatResponse:
        key = request_key({"model": self.name, **request_dict(messages, tools, options)})
        path = self.directory / key[:2] / f"{key}.json"
        if path.exists():
            response = response_from_dict(json.loads(path.read_text()))
            response.usage, response.cost_usd, response.latency_s, response.cached = Usage(), 0.0, 0.0, True
            return deliver_text(response, options)
        response = self.model.complete(messages, tools=tools, **options)
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps(response_to_dict(response)))
        os.replace(temporary, path)
        return response
