"""Processes a selftest case left behind, found by process tree, never by a marker in the command line.

While a :class:`Watch` is open this process is a child subreaper: an orphan of anything it started (a
daemon that left its session) is re-parented here instead of to init, so every process the case's local
sandbox started stays in this process's tree, whatever it renamed itself to. Docker jobs run in
containers, outside this tree: their processes are found by the container's cgroup, and every process in
one of this process's containers other than its runner (PID 1) is a survivor once the pool's resets have
been answered.

A process that another thread of this process starts while a case runs cannot be told from the case's own:
run the selftest in a process that does nothing else meanwhile (the CLI does).
"""

from __future__ import annotations

import os
import time

from sandboxes import linux
from sandboxes.proctree import pids_in_cgroup, process_table

SETTLE_S = 5.0
"""How long processes that are being killed (or containers being removed) get to go away."""


def _start_ticks(pid: int) -> int | None:
    """When ``pid`` started (clock ticks since boot), or None when it is gone; with the pid, names one process."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return int(handle.read().rsplit(")", 1)[1].split()[19])
    except (OSError, IndexError, ValueError):
        return None


class Watch:
    """Open around one case: ``left()`` lists what survived it (local: by tree; docker: by container)."""

    def __init__(self, sandbox) -> None:
        self.sandbox = sandbox
        self._before: dict[int, int | None] = {}
        self._runners: dict[str, int] = {}

    def __enter__(self) -> "Watch":
        self._before = {pid: _start_ticks(pid) for pid in process_table()}
        linux.set_child_subreaper(True)
        return self

    def __exit__(self, *exc) -> None:
        linux.set_child_subreaper(False)
        self._reap()

    def left(self, settle_s: float = SETTLE_S) -> list[int]:
        """Host pids of the case's surviving processes, after up to ``settle_s`` for the dying ones."""
        deadline = time.monotonic() + settle_s
        while True:
            self._settle_pool()
            found = sorted(set(self._descendants()) | set(self._in_containers()))
            if not found or time.monotonic() >= deadline:
                return found
            time.sleep(0.1)

    def _started_here(self, pid: int) -> bool:
        """True for a process that did not exist when the case began (the same pid reused counts as new)."""
        ticks = _start_ticks(pid)
        return ticks is not None and (pid not in self._before or self._before[pid] != ticks)

    def _descendants(self) -> list[int]:
        """Living processes below this one that the case started. A process that was there before the case
        is not its doing, and neither is anything below it (a helper process of the host, and what it starts)."""
        table = process_table()
        children: dict[int, list[int]] = {}
        for pid, (parent, _state) in table.items():
            children.setdefault(parent, []).append(pid)
        found, pending = [], list(children.get(os.getpid(), []))
        while pending:
            pid = pending.pop()
            if not self._started_here(pid):
                continue
            pending += children.get(pid, [])
            if table[pid][1] != "Z":
                found.append(pid)
        return found

    def _settle_pool(self) -> None:
        """Read the answers to the warm pool's pending resets (a reset kills the previous job's processes)."""
        pool = getattr(self.sandbox, "pool", None)
        if pool is not None:
            pool.settle()

    def _in_containers(self) -> list[int]:
        """Processes in this process's sandbox containers other than their runners."""
        client = getattr(self.sandbox, "client", None)
        if client is None:
            return []
        from sandboxes.docker_container import LABEL, OWNER_LABEL, owner_id

        found = []
        for container in client.api.containers(filters={"label": [LABEL, f"{OWNER_LABEL}={owner_id()}"]}):
            runner = self._runner_pid(client, container["Id"])
            found += [pid for pid in pids_in_cgroup(container["Id"]) if pid != runner]
        return found

    def _runner_pid(self, client, container_id: str) -> int:
        if container_id not in self._runners:
            try:
                self._runners[container_id] = int(client.api.inspect_container(container_id)["State"]["Pid"])
            except Exception:  # removed meanwhile
                return 0
        return self._runners[container_id]

    def _reap(self) -> None:
        """Collect the zombies of orphans that were re-parented here during the case."""
        for pid, (parent, state) in process_table().items():
            if parent == os.getpid() and state == "Z" and self._started_here(pid):
                try:
                    os.waitpid(pid, os.WNOHANG)
                except ChildProcessError:
                    pass
