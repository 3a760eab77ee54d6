"""Slow native builds (torch's headers or nvcc: 40-80 s each) done early, in one background thread, into a build
cache the whole session shares, at nice 19, so that they run on the core the rest of the suite leaves idle.

A test marked ``@pytest.mark.warm_build(build)`` names a :class:`Build` (made with :func:`spec_builds` or
:func:`solution_builds`) of what the test is about to build itself. When the session starts, the builds of the
selected, not skipped tests are started in the order of their tests; before such a test runs, it waits for its
builds. The test then builds the same specs into the same cache and gets the entries: real builds' outcomes,
made minutes earlier, failures and rejections included. A build that raises leaves no entry, so the test builds
again in the foreground and meets the error itself.
"""

from __future__ import annotations

import os
import shutil
import threading
import uuid
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
    """The session's shared cache and the background thread that fills it."""

    def __init__(self) -> None:
        self.root = default_cache_root() / f"test-warm-{uuid.uuid4().hex[:8]}"
        self.root.mkdir(mode=0o755)
        self.cache = BuildCache(self.root)
        self.done: dict[Build, threading.Event] = {}
        self.sandbox: Sandbox | None = None
        self.thread: threading.Thread | None = None
        self.stopping = threading.Event()

    def start(self, builds: Iterable[Build]) -> None:
        """Run ``builds`` one after another in a daemon thread (one extra core at most)."""
        from sandboxes.select import get_sandbox

        self.sandbox = get_sandbox("local")
        queue = list(dict.fromkeys(builds))
        self.done.update({build: threading.Event() for build in queue})
        self.thread = threading.Thread(target=self._run, args=(queue,), name="warm-builds", daemon=True)
        self.thread.start()

    def _run(self, queue: list[Build]) -> None:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)  # this thread and its compilers yield the CPU
        for build in queue:
            try:
                if not self.stopping.is_set():
                    build.run(self.cache, self.sandbox)
            except Exception:  # noqa: BLE001 - the test repeats the build in the foreground and reports it
                pass
            finally:
                self.done[build].set()

    def wait(self, builds: Iterable[Build]) -> None:
        """Block until each of ``builds`` that was started has finished."""
        for build in builds:
            event = self.done.get(build)
            if event is not None:
                event.wait()

    def close(self) -> None:
        """Start no more builds, let the running one finish (no orphaned compiler), remove the shared cache."""
        self.stopping.set()
        if self.thread is not None:
            self.thread.join()
        shutil.rmtree(self.root, ignore_errors=True)


def builds_of(item: pytest.Item) -> list[Build]:
    """The builds a test's ``warm_build`` markers name."""
    return [marker.args[0] for marker in item.iter_markers("warm_build")]


def will_run(item: pytest.Item) -> bool:
    """False for a test that carries a skip, or a skipif whose condition is already true."""
    if item.get_closest_marker("skip") is not None:
        return False
    return not any(marker.args and marker.args[0] is True for marker in item.iter_markers("skipif"))
