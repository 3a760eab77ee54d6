"""Slow native builds (torch's headers or nvcc: 40-80 s each) done early, in one background process, into a build
cache the whole session shares, at nice 19, so that they run on the core the rest of the suite leaves idle.

A test marked ``@pytest.mark.warm_build(build)`` names a :class:`Build` (made with :func:`spec_builds` or
:func:`solution_builds`) of what the test is about to build itself. When the session starts, the builds of the
selected, not skipped tests are started in the order of their tests; before such a test runs, it waits for its
builds. The test then builds the same specs into the same cache and gets the entries: real builds' outcomes,
made minutes earlier, failures and rejections included. A build that raises leaves no entry, so the test builds
again in the foreground and meets the error itself.

The builds run in a worker process started before the first test, never in a thread of the test process: a
selftest case counts the processes the test process starts while the case runs (sandboxes/survivors.py), and
a compiler started by a thread of the same process would be one of them.
"""

from __future__ import annotations

import multiprocessing
import os
import shutil
import uuid
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

import pytest

from benchmarks.kernels.verifier.prebuild import predicted_specs
from sandboxes.base import Sandbox
from sandboxes.targets.base import ExtensionSpec
from sandboxes.targets.cache import BuildCache, default_cache_root


@dataclass(eq=False)
class Build:
    """Native builds of ``specs`` by a ``target_class(cache)`` target (eq=False: each is its own queue entry)."""

    target_class: type
    specs: tuple[ExtensionSpec, ...]

    def run(self, cache: BuildCache, sandbox: Sandbox) -> None:
        target = self.target_class(cache)
        for spec in self.specs:
            target.build(spec, sandbox)


def spec_builds(target_class: type, *specs: ExtensionSpec) -> Build:
    """A build of ``specs`` by a ``target_class(cache)`` target."""
    return Build(target_class, specs)


def solution_builds(target_class: type, *paths: Path) -> Build:
    """A build of the native extensions that the solution files at ``paths`` declare (as the harness predicts them)."""
    return Build(target_class, tuple(spec for path in paths for spec, _ in predicted_specs(path.read_text())))


class WarmBuilds:
    """The session's shared cache and the background process that fills it."""

    def __init__(self) -> None:
        self.root = default_cache_root() / f"test-warm-{uuid.uuid4().hex[:8]}"
        self.root.mkdir(mode=0o755)
        self.cache = BuildCache(self.root)
        self.done: dict[Build, Future] = {}
        self.pool: ProcessPoolExecutor | None = None

    def start(self, builds: Iterable[Build]) -> None:
        """Queue ``builds``, one after another, on one worker process (one extra core at most)."""
        self.pool = ProcessPoolExecutor(max_workers=1, mp_context=multiprocessing.get_context("spawn"),
                                        initializer=_start_worker)
        self.done.update({build: self.pool.submit(_run_build, build, self.root)
                          for build in dict.fromkeys(builds)})

    def wait(self, builds: Iterable[Build]) -> None:
        """Block until each of ``builds`` that was started has finished (its outcome is in the cache, or not)."""
        for build in builds:
            future = self.done.get(build)
            if future is not None:
                future.exception()

    def close(self) -> None:
        """Start no more builds, let the running one finish (no orphaned compiler), remove the shared cache."""
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
        shutil.rmtree(self.root, ignore_errors=True)


_WORKER_SANDBOX: list[Sandbox] = []


def _start_worker() -> None:
    """The worker and the compilers it starts yield the CPU; it builds in its own local sandbox."""
    from sandboxes.select import get_sandbox

    os.nice(19)
    _WORKER_SANDBOX.append(get_sandbox("local"))


def _run_build(build: Build, root: Path) -> None:
    """One build in the worker (a build that raises leaves no entry; the test meets the error itself)."""
    build.run(BuildCache(root), _WORKER_SANDBOX[0])


def builds_of(item: pytest.Item) -> list[Build]:
    """The builds a test's ``warm_build`` markers name."""
    return [marker.args[0] for marker in item.iter_markers("warm_build")]


def will_run(item: pytest.Item) -> bool:
    """False for a test that carries a skip, or a skipif whose condition is already true."""
    if item.get_closest_marker("skip") is not None:
        return False
    return not any(marker.args and marker.args[0] is True for marker in item.iter_markers("skipif"))
