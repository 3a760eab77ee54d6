"""Recording (``--record FILE``) and replay (``--model replay:FILE``) of model sessions as JSONL."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

from sandboxes.errors import UserError
from sandboxes.telemetry import emit

from agents.runtime.models.base import ChatModel, ChatResponse, deliver_text
from agents.runtime.models.serialize import request_dict, request_key, response_from_dict, response_to_dict


class RecordingModel:
    """Passes calls through to ``model`` and appends each request and reply to a JSONL file."""

    def __init__(self, model: ChatModel, path: str | Path):
        self.model = model
        self.name = model.name
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()

    def complete(self, messages: list[dict[str, Any]], *, tools: list[dict[str, Any]] | None = None,
                 **options: Any) -> ChatResponse:
        response = self.model.complete(messages, tools=tools, **options)
        request = request_dict(messages, tools, options)
        record = {"key": request_key(request), "model": self.name, "request": request,
                  "response": response_to_dict(response)}
        with self._lock, self.path.open("a") as stream:
            stream.write(json.dumps(record, default=str) + "\n")
        return response


class ReplayModel:
    """Serves the replies of a recording: the reply recorded for the same request, else the next one in order."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.name = f"replay:{path}"
        self._records = _load_records(self.path)
        self._served = [False] * len(self._records)
        self._lock = threading.Lock()

    def complete(self, messages: list[dict[str, Any]], *, tools: list[dict[str, Any]] | None = None,
                 **options: Any) -> ChatResponse:
        key = request_key(request_dict(messages, tools, options))
        with self._lock:
            index = self._pick(key)
            self._served[index] = True
        return deliver_text(response_from_dict(self._records[index]["response"]), options)

    def _pick(self, key: str) -> int:
        unserved = [i for i, done in enumerate(self._served) if not done]
        if not unserved:
            raise UserError(f"replay file {self.path} has no reply left (all {len(self._records)} were served)")
        for index in unserved:
            if self._records[index].get("key") == key:
                return index
        emit("replay.mismatch", served=unserved[0], note="request differs from the recording; serving in order")
        return unserved[0]


def _load_records(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        raise UserError(f"replay file not found: {path}")
    records = []
    for number, line in enumerate(path.read_text().splitlines(), start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
            record["response"]["content"]
        except (json.JSONDecodeError, KeyError, TypeError) as error:
            raise UserError(f"replay file {path} line {number} is not a recorded call: {error}") from None
        records.append(record)
    return records
