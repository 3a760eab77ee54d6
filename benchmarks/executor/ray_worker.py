"""The worker half of the ``ray`` executor: what one Ray task does on its node.

A Ray worker process only drives the evaluation (static checks on the source, the verifier's host side,
scoring): every untrusted step runs in the sandbox of the node it landed on, with the limits the job
carries. The process keeps one :class:`~benchmarks.executor.base.Place` per sandbox backend, so its
persistent verifier runners stay warm from one evaluation to the next. The events the evaluation emits are
collected and handed back with its value, for the driver to write into the run.
"""

from __future__ import annotations

import atexit
import os
import threading
import time
from dataclasses import dataclass, field
from typing import Any, Callable

from sandboxes.telemetry import event_sink

from benchmarks.executor.base import Place

_places: dict[str | None, Place] = {}
_lock = threading.Lock()


@dataclass
class WorkerOutcome:
    """What one attempt of a job sends back to the driver."""

    value: Any
    events: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    """``(kind, fields)`` of every event the evaluation emitted, in order."""
    node_id: str = ""
    pid: int = 0
    seconds: float = 0.0
    """Wall time of the evaluation itself on the worker (the driver's wait minus this is Ray's overhead)."""


def worker_place(backend: str | None) -> Place:
    """This worker process's place for sandbox ``backend`` (made once, closed when the process exits)."""
    with _lock:
        if backend not in _places:
            if not _places:
                atexit.register(close_places)
            _places[backend] = Place(backend=backend)
        return _places[backend]


def close_places() -> None:
    """Close every place of this process (stops its persistent runners)."""
    with _lock:
        places = list(_places.values())
        _places.clear()
    for place in places:
        place.close()


def run_job(fn: Callable[..., Any], args: tuple, backend: str | None) -> WorkerOutcome:
    """Run ``fn(place, *args)`` on this node's place, collecting the events it emits."""
    import ray

    events: list[tuple[str, dict[str, Any]]] = []
    started = time.perf_counter()
    with event_sink(lambda kind, fields: events.append((kind, dict(fields)))):
        value = fn(worker_place(backend), *args)
    return WorkerOutcome(value, events, ray.get_runtime_context().get_node_id(), os.getpid(),
                         time.perf_counter() - started)
