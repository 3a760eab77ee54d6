"""The ``ray`` executor: each evaluation is a Ray task on a node that has what it needs.

The driver keeps the graph, the model calls and the memory writes; a Ray task only evaluates (in its node's
sandbox, see :mod:`benchmarks.executor.ray_worker`). Ray itself never retries a task: when the worker or
the node running an evaluation dies, the driver sends it again as the next attempt (an ``executor.retry``
event says which attempt was lost and why), so each evaluation is answered by exactly one attempt, named in
its ``executor.result`` event and in the events it emitted. An evaluation no live node can take is refused
before it is sent, and one left waiting because the last node able to take it died is cancelled and refused.
"""

from __future__ import annotations

import threading
import time
from typing import Any

from pydantic import Field

from sandboxes.errors import UserError
from sandboxes.settings import Config
from sandboxes.telemetry import emit

from benchmarks.executor.base import Job, Needs, Place
from benchmarks.executor.ray_cluster import NPU_RESOURCE, Inventory, connect, died_node, import_ray
from benchmarks.executor.ray_worker import WorkerOutcome, run_job

MAX_IN_FLIGHT = 256
"""Evaluations one ``run_all`` keeps submitted at once (Ray queues them until a node has room)."""


class RayExecutorConfig(Config):
    """Where the ``ray`` executor sends evaluations and how it treats lost ones."""

    address: str | None = None
    """``ray.init`` address: None joins ``RAY_ADDRESS`` (or starts a local instance); ``ray://HOST:PORT`` is a
    Ray Client connection."""
    sandbox: str | None = None
    """Sandbox backend each node evaluates in (docker, local, auto); None: that node's ``AGENT_SANDBOX`` or auto."""
    attempts: int = Field(3, ge=1)
    """How many times an evaluation is sent before its lost workers make it an error."""
    wait_s: float = Field(10.0, gt=0)
    """While an evaluation waits, how often the driver checks that some live node can still take it."""
    settle_s: float = Field(120.0, ge=0)
    """After an attempt lost with its node, how long to wait for the cluster to mark that node dead before the
    next attempt is sent (Ray's health checks take 15-30 s by default)."""


def ray_options(needs: Needs) -> dict[str, Any]:
    """The Ray task options that ask for ``needs``."""
    options: dict[str, Any] = {"num_cpus": needs.cpus, "num_gpus": needs.gpus}
    if needs.npus:
        options["resources"] = {NPU_RESOURCE: needs.npus}
    return options


def lost_errors() -> tuple[type[BaseException], ...]:
    """The Ray errors that mean the worker or node went away (the evaluation itself said nothing)."""
    from ray import exceptions

    return (exceptions.WorkerCrashedError, exceptions.NodeDiedError, exceptions.ObjectLostError,
            exceptions.OutOfMemoryError)


class RayExecutor:
    """Runs jobs as Ray tasks on the cluster at ``config.address``."""

    name = "ray"

    def __init__(self, config: RayExecutorConfig | None = None):
        self.config = config or RayExecutorConfig()
        ray = import_ray()
        self._owned = connect(self.config.address)
        self.inventory = Inventory()
        # max_calls=0: a worker (and its warm runners) stays after a GPU task too; max_retries=0: the driver retries
        self._task = ray.remote(max_calls=0, max_retries=0)(run_job)
        self._lock = threading.Lock()
        self.overheads_s: list[float] = []
        """Per accepted evaluation: the driver's wait minus the worker's own time (Ray's overhead)."""

    def run(self, job: Job, place: Place | None = None) -> Any:
        """Run ``job`` on some node that has what it needs (``place`` is the driver's and is not used)."""
        self.inventory.require(job.needs)
        lost = lost_errors()
        for attempt in range(1, self.config.attempts + 1):
            started = time.perf_counter()
            ref = self._task.options(**ray_options(job.needs)).remote(job.fn, job.args, self.config.sandbox)
            try:
                outcome = self._wait(ref, job)
            except lost as error:
                emit("executor.retry", key=job.key, attempt=attempt, error=_first_line(error),
                     retrying=attempt < self.config.attempts)
                self._settle(error)
                self.inventory.require(job.needs, fresh=True)
                continue
            return self._accept(job, attempt, outcome, time.perf_counter() - started)
        raise UserError(f"the evaluation {job.key} lost its Ray worker {self.config.attempts} times "
                        "(see the executor.retry events): check the nodes' memory and logs (ray status)")

    def _settle(self, error: BaseException) -> None:
        """After a lost attempt whose node died: wait until the cluster says so, so that the next attempt goes to
        a node that is still there and the check that some node can take it sees the cluster as it now is."""
        node = died_node(error)
        if node is not None:
            self.inventory.wait_gone(node, self.config.settle_s)

    def _wait(self, ref: Any, job: Job) -> WorkerOutcome:
        """The attempt's outcome; refused (and cancelled) when no live node can take it any more."""
        ray = import_ray()
        while True:
            try:
                return ray.get(ref, timeout=self.config.wait_s)
            except ray.exceptions.GetTimeoutError:
                try:
                    self.inventory.require(job.needs, fresh=True)
                except UserError:
                    ray.cancel(ref, force=True)
                    raise
            except ray.exceptions.RayTaskError as error:  # the evaluation raised: the same error as locally
                cause = error.cause
                raise cause if isinstance(cause, Exception) else error

    def _accept(self, job: Job, attempt: int, outcome: WorkerOutcome, waited_s: float) -> Any:
        """Write the attempt's events into the run, tagged with node and attempt, and hand back its value."""
        node = outcome.node_id[:12]
        for kind, fields in outcome.events:
            emit(kind, **fields, executor_node=node, executor_attempt=attempt)
        overhead = max(0.0, waited_s - outcome.seconds)
        with self._lock:
            self.overheads_s.append(overhead)
        emit("executor.result", key=job.key, attempt=attempt, node=node, pid=outcome.pid,
             seconds=round(outcome.seconds, 4), overhead_ms=round(overhead * 1000, 2))
        return outcome.value

    def width(self, requested: int, needs: Needs) -> int:
        """Enough jobs in flight to fill every slot of the cluster (and at least ``requested``)."""
        return min(MAX_IN_FLIGHT, max(requested, self.inventory.slots(needs)))

    def close(self) -> None:
        """Leave the cluster when this executor joined it."""
        if self._owned:
            import_ray().shutdown()
            self._owned = False


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return f"{type(error).__name__}: {text.splitlines()[0][:300] if text else 'no detail'}"
