"""The Executor seam: where an evaluation runs.

A :class:`Job` is one evaluation: a module-level function, its (picklable) arguments, the hardware it
needs and a key naming it in events. The function is called as ``fn(place, *args)``; the
:class:`Place` is the node it runs on, which gives it that node's sandbox and objects kept warm between
evaluations (a pool of persistent verifier runners). Every untrusted step still runs inside that
sandbox: an executor only decides which process, on which node, drives the evaluation.
"""

from __future__ import annotations

import contextvars
import threading
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass, field
from typing import Any, Callable, Protocol, Sequence, TypeVar

from sandboxes.base import Sandbox

T = TypeVar("T")
ResultHook = Callable[[int, int, Any], None]
"""``on_result(done, index, value)``: called in the driver once per job, as each one finishes."""


@dataclass(frozen=True)
class Needs:
    """The hardware one evaluation occupies while it runs; a node without it never gets the evaluation."""

    cpus: float = 1.0
    """CPU cores (the evaluation's threads)."""
    gpus: float = 0.0
    """CUDA GPUs (a gpu-target evaluation asks for one)."""
    npus: float = 0.0
    """Ascend NPUs, Ray's ``NPU`` resource (an evaluation on real Ascend hardware asks for one)."""

    def describe(self) -> str:
        """``1 CPU, 1 GPU`` style text for messages."""
        parts = [(self.cpus, "CPU"), (self.gpus, "GPU"), (self.npus, "NPU")]
        return ", ".join(f"{amount:g} {name}" for amount, name in parts if amount)


@dataclass(frozen=True)
class Job:
    """One evaluation to run somewhere: ``fn(place, *args)``."""

    key: str
    """Names the evaluation in events (task and candidate)."""
    fn: Callable[..., Any]
    """A module-level function (workers import it by name)."""
    args: tuple = ()
    needs: Needs = field(default_factory=Needs)


class Place:
    """The node an evaluation runs on: its sandbox and the objects kept warm there between evaluations.

    ``sandbox``: the sandbox to hand out (None: ``sandboxes.select.get_sandbox(backend)`` on first use).
    ``kept``: objects already made, by name (a driver passes the verifier pool it owns)."""

    def __init__(self, sandbox: Sandbox | None = None, backend: str | None = None,
                 kept: dict[str, Any] | None = None):
        self._sandbox = sandbox
        self.backend = backend
        self._kept: dict[str, Any] = dict(kept or {})
        self._made: list[Any] = []
        self._lock = threading.Lock()

    def sandbox(self) -> Sandbox:
        """This node's sandbox (proved to run a trivial job before it is first handed out)."""
        if self._sandbox is None:
            from sandboxes.select import get_sandbox

            self._sandbox = get_sandbox(self.backend)
        return self._sandbox

    def sandbox_or_default(self) -> Sandbox | None:
        """For code that picks the default sandbox itself, and only once it needs one, when given None: this
        place's sandbox when it has one or names a backend, else None."""
        return self.sandbox() if self._sandbox is not None or self.backend else None

    def keep(self, name: str, factory: Callable[[], T]) -> T:
        """The object kept under ``name``, made by ``factory`` the first time (the objects kept must be safe to
        share between the threads that evaluate on this place, as ``VerifierPool`` is)."""
        with self._lock:
            if name not in self._kept:
                self._kept[name] = factory()
                self._made.append(self._kept[name])
            return self._kept[name]

    def close(self) -> None:
        """Close what this place made itself (objects it was given belong to whoever gave them)."""
        with self._lock:
            made, self._made = self._made, []
            for name in [name for name, value in self._kept.items() if any(value is m for m in made)]:
                del self._kept[name]
        for value in made:
            closer = getattr(value, "close", None)
            if callable(closer):
                closer()


class Executor(Protocol):
    """Runs evaluations: here (``local``) or on a cluster (``ray``)."""

    name: str

    def run(self, job: Job, place: Place | None = None) -> Any:
        """Run one job and return its value (blocking; safe to call from several threads at once).
        ``place``: the driver's own place, used when the job runs in this process."""

    def width(self, requested: int, needs: Needs) -> int:
        """How many jobs to keep in flight at once when the caller asked for ``requested``."""

    def close(self) -> None:
        """Release what the executor holds (a cluster connection it made)."""


def run_all(executor: Executor, jobs: Sequence[Job], *, place: Place | None = None, width: int = 1,
            on_result: ResultHook | None = None) -> list[Any]:
    """Every job's value, in the order of ``jobs``; ``on_result`` in the driver as each one finishes.
    Each job runs in its own copy of the caller's context, so its events reach the caller's run."""
    if not jobs:
        return []
    values: list[Any] = [None] * len(jobs)
    in_flight = max(1, min(len(jobs), executor.width(width, jobs[0].needs)))
    with ThreadPoolExecutor(max_workers=in_flight) as pool:
        futures = {pool.submit(contextvars.copy_context().run, executor.run, job, place): index
                   for index, job in enumerate(jobs)}
        for done, future in enumerate(as_completed(futures), start=1):
            index = futures[future]
            values[index] = future.result()
            if on_result is not None:
                on_result(done, index, values[index])
    return values
