"""The ``local`` executor: evaluations run in this process, on the caller's threads (today's pool)."""

from __future__ import annotations

from typing import Any

from benchmarks.executor.base import Job, Needs, Place


class LocalExecutor:
    """Calls each job in the calling thread; ``run_all`` gives it as many threads as ``--jobs`` asks for.
    ``sandbox``: the backend name a place without a sandbox of its own resolves (None: ``AGENT_SANDBOX`` or auto)."""

    name = "local"

    def __init__(self, sandbox: str | None = None):
        self.place = Place(backend=sandbox)
        """The place of jobs whose caller gives none (its kept objects live as long as the executor)."""

    def run(self, job: Job, place: Place | None = None) -> Any:
        """``job.fn(place, *job.args)`` here and now."""
        return job.fn(place or self.place, *job.args)

    def width(self, requested: int, needs: Needs) -> int:
        """Exactly what the caller asked for (one thread per evaluation in flight)."""
        return requested

    def close(self) -> None:
        """Close what the default place made (e.g. its verifier pool)."""
        self.place.close()
