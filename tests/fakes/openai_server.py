"""A small OpenAI-compatible HTTP server for tests: scripted replies, tool calls, usage, streaming, errors.

    with FakeOpenAIServer(["hello", {"tool_calls": [{"name": "f", "arguments": {"x": 1}}]}]) as server:
        ... --model openai/gpt-4o-mini --api-base {server.url} ...
        server.requests  # the JSON bodies received

A reply is a string (assistant text), ``{"content": ..., "tool_calls": [{"name", "arguments"}]}``, or
``{"status": 429, "error": "slow down"}`` to answer with an HTTP error. ``POST .../chat/completions``
accepts any prefix (``/v1`` or none), so ``url`` and ``url + "/v1"`` both work as api_base.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Iterable, Union

Reply = Union[str, dict]


class FakeOpenAIServer:
    """Threaded HTTP server on 127.0.0.1 (a free port) serving ``replies`` in order."""

    def __init__(self, replies: Iterable[Reply] = ()):
        self.replies: list[Reply] = list(replies)
        self.requests: list[dict[str, Any]] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        return self._server.server_address[1]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> "FakeOpenAIServer":
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> "FakeOpenAIServer":
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def next_reply(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            self.requests.append(body)
            if not self.replies:
                return {"status": 400, "error": "fake server: no scripted reply left"}
            return self.replies.pop(0)


def _handler_for(server: FakeOpenAIServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:  # keep test output clean
            pass

        def do_GET(self) -> None:
            if self.path.rstrip("/").endswith("/models"):
                self._send_json(200, {"object": "list", "data": [{"id": "fake", "object": "model"}]})
            else:
                self._send_json(404, {"error": {"message": "not found"}})

        def do_POST(self) -> None:
            body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", 0))) or b"{}")
            if not self.path.rstrip("/").endswith("/chat/completions"):
                self._send_json(404, {"error": {"message": f"no route {self.path}"}})
                return
            reply = server.next_reply(body)
            if isinstance(reply, dict) and "status" in reply:
                error = {"message": reply.get("error", "error"), "type": "fake_error", "code": reply["status"]}
                self._send_json(int(reply["status"]), {"error": error})
            elif body.get("stream"):
                self._send_stream(body, reply)
            else:
                self._send_json(200, completion(body, reply))

        def _send_json(self, status: int, payload: dict[str, Any]) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _send_stream(self, body: dict[str, Any], reply: Reply) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            for chunk in stream_chunks(body, reply):
                self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                self.wfile.flush()
            self.wfile.write(b"data: [DONE]\n\n")

    return Handler


def _parts(reply: Reply) -> tuple[str, list[dict[str, Any]]]:
    if isinstance(reply, str):
        return reply, []
    calls = [{"id": call.get("id", f"call_{i}"), "type": "function",
              "function": {"name": call["name"], "arguments": json.dumps(call.get("arguments", {}))}}
             for i, call in enumerate(reply.get("tool_calls", []))]
    return reply.get("content", ""), calls


def usage(body: dict[str, Any], text: str, calls: list[dict[str, Any]]) -> dict[str, int]:
    """Deterministic token counts: about four characters per token."""
    prompt = sum(len(str(m.get("content") or "")) for m in body.get("messages", [])) // 4 + 1
    completion = (len(text) + sum(len(c["function"]["arguments"]) for c in calls)) // 4 + 1
    return {"prompt_tokens": prompt, "completion_tokens": completion, "total_tokens": prompt + completion}


def completion(body: dict[str, Any], reply: Reply) -> dict[str, Any]:
    """A non-streamed ``chat.completion`` object for ``reply``."""
    text, calls = _parts(reply)
    message: dict[str, Any] = {"role": "assistant", "content": text or None}
    if calls:
        message["tool_calls"] = calls
    return {"id": "chatcmpl-fake", "object": "chat.completion", "created": int(time.time()),
            "model": body.get("model", "fake"),
            "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if calls else "stop"}],
            "usage": usage(body, text, calls)}


def stream_chunks(body: dict[str, Any], reply: Reply) -> list[dict[str, Any]]:
    """The ``chat.completion.chunk`` objects of a streamed ``reply`` (word by word, usage last if asked)."""
    text, calls = _parts(reply)
    base = {"id": "chatcmpl-fake", "object": "chat.completion.chunk", "created": int(time.time()),
            "model": body.get("model", "fake")}
    pieces = [word + " " for word in text.split(" ")] if text else []
    if pieces:
        pieces[-1] = pieces[-1][:-1]
    chunks = [{**base, "choices": [{"index": 0, "delta": {"role": "assistant", "content": piece},
                                    "finish_reason": None}]} for piece in pieces]
    if calls:
        deltas = [{"index": i, **call} for i, call in enumerate(calls)]
        chunks.append({**base, "choices": [{"index": 0, "delta": {"role": "assistant", "tool_calls": deltas},
                                            "finish_reason": None}]})
    chunks.append({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls" if calls else "stop"}]})
    if (body.get("stream_options") or {}).get("include_usage"):
        chunks.append({**base, "choices": [], "usage": usage(body, text, calls)})
    return chunks
