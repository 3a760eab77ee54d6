"""Bounded parallelism: a thread pool over many tasks, and slots that cap concurrent attempts."""

from __future__ import annotations

import contextlib
import contextvars
import heapq
import itertools
import signal
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, Iterable, Iterator, TypeVar

K = TypeVar("K")
V = TypeVar("V")


def parallel_map(fn: Callable[[K], V], keys: Iterable[K], workers: int) -> dict[K, V]:
    """``{key: fn(key)}`` computed by up to ``workers`` threads; each thread sees the caller's context
    (so ``sandboxes.telemetry.emit`` still reaches the run). The first exception is re-raised."""
    keys = list(keys)
    if workers <= 1 or len(keys) <= 1:
        return {key: fn(key) for key in keys}
    with ThreadPoolExecutor(max_workers=min(workers, len(keys))) as pool:
        futures = {key: pool.submit(contextvars.copy_context().run, fn, key) for key in keys}
        return {key: future.result() for key, future in futures.items()}


class Cancelled(RuntimeError):
    """The run is stopping: this attempt's work is dropped (it is not checkpointed, so a resume redoes it)."""


class Slots:
    """At most ``size`` holders at once, the waiting one with the highest priority first (the slowest
    verification of a round starts first, so that it does not finish the round alone). After :meth:`stop`
    nobody gets a slot and holders are told to drop their result (a verdict obtained while the run shuts
    its verifiers down is not a real one)."""

    def __init__(self, size: int):
        self._free = max(1, size)
        self._waiting: list[tuple[float, int]] = []
        self._tickets = itertools.count()
        self._stopping = False
        self._holders = 0
        self._changed = threading.Condition()  # re-entrant: stop() may run in a signal handler of a holder

    @contextlib.contextmanager
    def hold(self, priority: float = 0.0) -> Iterator[None]:
        ticket = (-priority, next(self._tickets))
        with self._changed:
            heapq.heappush(self._waiting, ticket)
            self._changed.wait_for(lambda: self._stopping or (self._free > 0 and self._waiting[0] == ticket))
            self._waiting.remove(ticket)
            heapq.heapify(self._waiting)
            self._changed.notify_all()
            self.check()
            self._free -= 1
            self._holders += 1
        try:
            yield
        finally:
            with self._changed:
                self._free += 1
                self._holders -= 1
                self._changed.notify_all()

    def check(self) -> None:
        """Raise :class:`Cancelled` once the run is stopping."""
        if self._stopping:
            raise Cancelled("the run is stopping")

    def stop(self, wait_s: float = 0.0) -> None:
        """Refuse new holders; wait up to ``wait_s`` for the current ones to finish."""
        with self._changed:
            self._stopping = True
            self._changed.notify_all()
            self._changed.wait_for(lambda: self._holders == 0, timeout=wait_s)


@contextlib.contextmanager
def on_interrupt(callback: Callable[[], None]) -> Iterator[None]:
    """Call ``callback`` the moment SIGINT arrives, then the handler that was there before (which raises
    KeyboardInterrupt). Only in the main thread, and not where SIGINT is ignored."""
    previous = signal.getsignal(signal.SIGINT)
    if threading.current_thread() is not threading.main_thread() or previous in (signal.SIG_IGN, None):
        yield
        return

    def handler(signum: int, frame: object) -> None:
        callback()
        if callable(previous):
            previous(signum, frame)
        else:
            raise KeyboardInterrupt

    signal.signal(signal.SIGINT, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
