"""A warm pool of started runner containers, keyed by container spec.

A container serves many jobs: between jobs its runner kills every process and wipes /work, /tmp and
/dev/shm, so a job finds the same clean state as in a new container without paying for the start-up.
"""

from __future__ import annotations

import atexit
import threading
from collections import defaultdict

from sandboxes.docker_channel import ChannelClosed
from sandboxes.docker_container import ContainerSpec, RunnerContainer

MAX_JOBS_PER_CONTAINER = 500


class WarmPool:
    """Idle containers ready for a job; ``size`` is how many idle ones are kept per spec."""

    def __init__(self, client, image: str, size: int = 2, host_toolchains: bool = True) -> None:
        self.client, self.image, self.size, self.host_toolchains = client, image, size, host_toolchains
        self._idle: dict[ContainerSpec, list[RunnerContainer]] = defaultdict(list)
        self._jobs: dict[str, int] = {}
        self._lock = threading.Lock()
        atexit.register(self.close)

    def new_container(self, spec: ContainerSpec) -> RunnerContainer:
        return RunnerContainer(self.client, self.image, spec, self.host_toolchains)

    def prewarm(self, spec: ContainerSpec, count: int | None = None) -> None:
        """Start containers until ``count`` (default: the pool size) are idle for ``spec``."""
        while len(self._idle[spec]) < (count or self.size):
            container = self.new_container(spec)
            with self._lock:
                self._idle[spec].append(container)

    def acquire(self, spec: ContainerSpec) -> RunnerContainer:
        """An idle container whose reset has been answered (one that failed it is discarded), else a new one."""
        while True:
            with self._lock:
                container = self._idle[spec].pop() if self._idle[spec] else None
            if container is None:
                return self.new_container(spec)
            try:
                container.settle()
                return container
            except ChannelClosed:
                self._jobs.pop(container.id, None)
                container.discard()

    def release(self, container: RunnerContainer, healthy: bool) -> None:
        """Clean a healthy container and keep it, or discard it."""
        jobs = self._jobs.get(container.id, 0) + 1
        self._jobs[container.id] = jobs
        with self._lock:
            keep = healthy and jobs < MAX_JOBS_PER_CONTAINER and len(self._idle[container.spec]) < self.size
            if keep:
                try:
                    container.reset_async()
                    self._idle[container.spec].append(container)
                    return
                except ChannelClosed:
                    pass
        self._jobs.pop(container.id, None)
        container.discard()

    def settle(self) -> None:
        """Read every idle container's pending reset answer; discard the containers that fail it."""
        with self._lock:
            for containers in self._idle.values():
                for container in list(containers):
                    try:
                        container.settle()
                    except ChannelClosed:
                        containers.remove(container)
                        container.discard()

    def close(self) -> None:
        with self._lock:
            idle = [c for containers in self._idle.values() for c in containers]
            self._idle.clear()
        for container in idle:
            container.discard()
