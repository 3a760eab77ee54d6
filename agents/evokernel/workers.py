"""Run one function over many tasks in a bounded thread pool, keeping the run's event routing."""

from __future__ import annotations

import contextvars
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, Iterable, TypeVar

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
