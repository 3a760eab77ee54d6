"""A process-wide event hook so that any layer can report what it did to the current run.

The runtime installs a sink (the run's ``events.jsonl``); library code calls :func:`emit` and
never needs to know whether a run is active.
"""

from __future__ import annotations

import contextlib
import contextvars
from typing import Any, Callable, Iterator

EventSink = Callable[[str, dict[str, Any]], None]

_sink: contextvars.ContextVar[EventSink | None] = contextvars.ContextVar("agentkiln_event_sink", default=None)


def emit(kind: str, **fields: Any) -> None:
    """Report one event (``kind`` such as ``sandbox.result``) to the active sink, if any."""
    sink = _sink.get()
    if sink is not None:
        sink(kind, fields)


@contextlib.contextmanager
def event_sink(sink: EventSink) -> Iterator[None]:
    """Route :func:`emit` calls made inside this block to ``sink``."""
    token = _sink.set(sink)
    try:
        yield
    finally:
        _sink.reset(token)
