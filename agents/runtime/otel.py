"""Export runs as OpenTelemetry traces over OTLP/HTTP (protobuf), to any OTLP backend (Jaeger, Phoenix, Langfuse,
Grafana Tempo, an OpenTelemetry Collector).

Where: ``--otel URL`` (``RunOptions.otel``, saved with the run so a resume exports too), else the standard
``OTEL_EXPORTER_OTLP_TRACES_ENDPOINT`` / ``OTEL_EXPORTER_OTLP_ENDPOINT`` variables; ``OTEL_EXPORTER_OTLP_HEADERS``,
``..._TIMEOUT``, ``..._COMPRESSION``, ``OTEL_SERVICE_NAME`` and ``OTEL_RESOURCE_ATTRIBUTES`` apply as usual, and
``OTEL_SDK_DISABLED=true`` or ``OTEL_TRACES_EXPORTER=none`` turn it off. A run exports each segment (its first
execution, every resume) when that segment ends; ``agent runs otel ID`` exports a whole run after the fact.
The spans come from the run's events (``otel_spans``), through the SDK's public tracer API with ids fixed by
the run, so exporting again sends the same trace.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any, Iterator

from sandboxes.errors import UserError

from agents.runtime.otel_spans import SpanRecord, build_spans, segment_spans, segments, trace_id

if TYPE_CHECKING:
    from agents.runtime.run import Run

TRACES_PATH = "/v1/traces"
ENDPOINT_VARIABLES = ("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_ENDPOINT")
INSTALL_HINT = 'pip install "agentkiln[ui]" (or opentelemetry-sdk opentelemetry-exporter-otlp-proto-http)'


def traces_url(endpoint: str) -> str:
    """``--otel`` as the traces URL: a base URL (``http://host:4318``) gets ``/v1/traces`` like the standard
    ``OTEL_EXPORTER_OTLP_ENDPOINT``; a URL with a path is used as it is."""
    scheme, _, rest = endpoint.partition("://")
    if not rest or scheme not in ("http", "https"):
        raise UserError(f"otel endpoint {endpoint!r}: give the http(s) URL of an OTLP/HTTP receiver, e.g. "
                        "http://localhost:4318")
    return endpoint if "/" in rest.strip("/") else endpoint.rstrip("/") + TRACES_PATH


def configured(endpoint: str | None = None) -> bool:
    """Whether traces go anywhere: ``endpoint`` given, or an OTLP endpoint variable set, and not disabled."""
    if os.environ.get("OTEL_SDK_DISABLED", "").lower() == "true":
        return False
    if os.environ.get("OTEL_TRACES_EXPORTER", "otlp").strip().lower() == "none":
        return False
    return bool(endpoint) or any(os.environ.get(name) for name in ENDPOINT_VARIABLES)


def export_run(run: "Run", endpoint: str | None = None, *, last_segment_only: bool = False) -> int:
    """Send the run's trace (every segment, or only the latest) and return how many spans went; a backend that
    cannot be reached or refuses is a UserError naming it."""
    events = run.events()
    records = (segment_spans(run.id, run.agent, segments(events)[-1]) if last_segment_only and events
               else build_spans(run.id, run.agent, events))
    if not records:
        return 0
    spans = finished_spans(run.id, records)
    exporter = _exporter(endpoint)
    try:
        result = exporter.export(spans)
    finally:
        exporter.shutdown()
    if result.name != "SUCCESS":
        where = traces_url(endpoint) if endpoint else "the OTEL_EXPORTER_OTLP_* endpoint"
        raise UserError(f"run {run.id}: the OTLP receiver at {where} did not accept {len(spans)} spans ({result.name})")
    return len(spans)


def export_finished_segment(run: "Run") -> None:
    """Called when a segment of ``run`` ends: export it if traces are configured; a failure is one warning line,
    never a failed run."""
    endpoint = run.runtime.get("otel")
    if not configured(endpoint):
        return
    try:
        count = export_run(run, endpoint, last_segment_only=True)
    except Exception as error:  # the run itself went as it went: an export problem is only a warning
        text = str(error) if isinstance(error, UserError) else f"{type(error).__name__}: {error}"
        print(f"warning: run {run.id} was not exported to OpenTelemetry: {text}", file=sys.stderr)
        return
    run.emit("otel.exported", spans=count, endpoint=traces_url(endpoint) if endpoint else "OTEL_EXPORTER_OTLP_*")


def _exporter(endpoint: str | None) -> Any:
    try:
        from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    except ImportError as error:
        raise UserError(f"OpenTelemetry export needs the OTLP exporter ({error}): {INSTALL_HINT}") from None
    return OTLPSpanExporter(endpoint=traces_url(endpoint)) if endpoint else OTLPSpanExporter()


def finished_spans(run_id: str, records: list[SpanRecord]) -> list[Any]:
    """The records as SDK spans, made through a tracer with the run's ids, start and end times, and events."""
    from opentelemetry import trace
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import SimpleSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    ids = _fixed_ids(trace_id(run_id), (record.span_id for record in records))
    provider = TracerProvider(resource=Resource.create({"service.name": os.environ.get("OTEL_SERVICE_NAME")
                                                        or "agentkiln"}), id_generator=ids)
    memory = InMemorySpanExporter()
    provider.add_span_processor(SimpleSpanProcessor(memory))
    tracer = provider.get_tracer("agentkiln.runtime")
    contexts: dict[int, Any] = {}
    for record in records:
        parent = contexts.get(record.parent_id) if record.parent_id is not None else None
        span = tracer.start_span(record.name, context=trace.set_span_in_context(parent) if parent else None,
                                 kind=trace.SpanKind.CLIENT if record.kind == "client" else trace.SpanKind.INTERNAL,
                                 attributes=record.attributes, start_time=_ns(record.start))
        for name, at, fields in record.events:
            span.add_event(name, fields, timestamp=_ns(at))
        if record.error:
            span.set_status(trace.Status(trace.StatusCode.ERROR, record.error[:500]))
        span.end(end_time=_ns(max(record.end, record.start)))
        contexts[record.span_id] = trace.NonRecordingSpan(span.get_span_context())
    provider.shutdown()
    return list(memory.get_finished_spans())


def _fixed_ids(trace: int, spans: Iterator[int]) -> Any:
    """An SDK id generator that hands out the run's trace id and the records' span ids, in order."""
    from opentelemetry.sdk.trace.id_generator import IdGenerator

    class FixedIds(IdGenerator):
        def __init__(self) -> None:
            self.spans = iter(spans)

        def generate_trace_id(self) -> int:
            return trace

        def generate_span_id(self) -> int:
            return next(self.spans)

        def is_trace_id_random(self) -> bool:
            return False  # derived from the run id (W3C's "random" trace flag stays unset)

    return FixedIds()


def _ns(seconds: float) -> int:
    return int(round(seconds * 1e9))
