"""Bounded parallelism: a thread pool over many tasks, and slots that cap concurrent attempts."""

from __future__ import annotations

import contextlib
import contextvars
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
    """At most ``size`` holders at once; after :meth:`stop` nobody gets a slot and holders are told to drop
    their result (a verdict obtained while the run shuts its verifiers down is not a real one)."""

    def __init__(self, size: int):
        self._semaphore = threading.BoundedSemaphore(max(1, size))
        self._stopping = threading.Event()
        self._idle = threading.Condition()
        self._holders = 0

    @contextlib.contextmanager
    def hold(self) -> Iterator[None]:
        self._semaphore.acquire()
        try:
            self.check()
            with self._idle:
                self._holders += 1
            try:
                yield
            finally:
                with self._idle:
                    self._holders -= 1
                    self._idle.notify_all()
        finally:
            self._semaphore.release()

    def check(self) -> None:
        """Raise :class:`Cancelled` once the run is stopping."""
        if self._stopping.is_set():
            raise Cancelled("the run is stopping")

    def stop(self, wait_s: float = 0.0) -> None:
        """Refuse new holders; wait up to ``wait_s`` for the current ones to finish."""
        self._stopping.set()
        with self._idle:
            self._idle.wait_for(lambda: self._holders == 0, timeout=wait_s)


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
