"""Pausing Python's cyclic garbage collector while a graph is built, moved or ranked, and while the
harness parses an instance's gold files beside the graphs a localiser keeps.

Parsing and indexing allocate millions of short-lived objects without reference cycles (AST nodes,
tuples, token lists), which reference counting frees on its own. Every burst of allocations still
triggers the cyclic collector, and its full passes traverse every live object, the whole graph of a
large repository included: on sympy (a 735k-object graph) they cost more CPU than ``ast.parse``
itself. Pauses are counted, so threads moving different repositories at once turn the collector back
on only when the last of them is done, and a collector that was off before stays off.
"""

from __future__ import annotations

import functools
import gc
import threading
from contextlib import contextmanager
from typing import Callable, Iterator, TypeVar

_F = TypeVar("_F", bound=Callable)


class _Pauses:
    """How many pauses are open, and whether the collector ran before the first."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.open = 0
        self.was_enabled = False


_PAUSES = _Pauses()


@contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic collector is off inside; it is on again after the last open pause if it was before."""
    with _PAUSES.lock:
        if _PAUSES.open == 0:
            _PAUSES.was_enabled = gc.isenabled()
            gc.disable()
        _PAUSES.open += 1
    try:
        yield
    finally:
        with _PAUSES.lock:
            _PAUSES.open -= 1
            if _PAUSES.open == 0 and _PAUSES.was_enabled:
                gc.enable()


def paused(function: _F) -> _F:
    """``function`` runs with the cyclic collector paused."""
    @functools.wraps(function)
    def wrapper(*args, **kwargs):
        with collector_paused():
            return function(*args, **kwargs)
    return wrapper  # type: ignore[return-value]
