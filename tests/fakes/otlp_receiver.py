"""An OTLP/HTTP trace receiver for tests: decodes every ``POST /v1/traces`` (protobuf, gzip or not) into spans.

    with OtlpReceiver() as receiver:
        ... --otel {receiver.url} ...
        receiver.spans()  # every span received, as plain dicts (ids in hex, attributes decoded)
"""

from __future__ import annotations

import gzip
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class OtlpReceiver:
    """Threaded HTTP server on 127.0.0.1 (a free port) that keeps the decoded export requests."""

    def __init__(self, status: int = 200):
        self.status = status
        self.requests: list[Any] = []
        self.paths: list[str] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler_for(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> "OtlpReceiver":
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._server.shutdown()
        self._server.server_close()

    def spans(self) -> list[dict[str, Any]]:
        """Every span of every request so far: name, ids, parent, kind, times, attributes, events, status."""
        with self._lock:
            requests = list(self.requests)
        return [_span(resource, span) for request in requests for resource in request.resource_spans
                for scope in resource.scope_spans for span in scope.spans]


def _span(resource: Any, span: Any) -> dict[str, Any]:
    return {"name": span.name, "trace_id": span.trace_id.hex(), "span_id": span.span_id.hex(),
            "parent_id": span.parent_span_id.hex() or None, "kind": span.kind, "start_ns": span.start_time_unix_nano,
            "end_ns": span.end_time_unix_nano, "attributes": _attributes(span.attributes),
            "events": [{"name": e.name, "time_ns": e.time_unix_nano, "attributes": _attributes(e.attributes)}
                       for e in span.events],
            "status": span.status.code, "status_message": span.status.message,
            "resource": _attributes(resource.resource.attributes)}


def _attributes(pairs: Any) -> dict[str, Any]:
    return {pair.key: _value(pair.value) for pair in pairs}


def _value(value: Any) -> Any:
    which = value.WhichOneof("value")
    if which == "array_value":
        return [_value(item) for item in value.array_value.values]
    return getattr(value, which) if which else None


def _handler_for(receiver: OtlpReceiver) -> type[BaseHTTPRequestHandler]:
    from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (ExportTraceServiceRequest,
                                                                          ExportTraceServiceResponse)

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            if self.headers.get("Content-Encoding") == "gzip":
                body = gzip.decompress(body)
            request = ExportTraceServiceRequest()
            request.ParseFromString(body)
            with receiver._lock:
                receiver.requests.append(request)
                receiver.paths.append(self.path)
            reply = ExportTraceServiceResponse().SerializeToString()
            self.send_response(receiver.status)
            self.send_header("Content-Type", "application/x-protobuf")
            self.send_header("Content-Length", str(len(reply)))
            self.end_headers()
            self.wfile.write(reply)

        def log_message(self, *args: Any) -> None:
            pass

    return Handler
