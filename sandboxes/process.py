"""A long-lived sandboxed process with pipes, returned by ``Sandbox.spawn`` (both backends).

Limits: memory, pids, CPU quota, disk, network and the read-only paths hold for the whole process tree
over its whole life, exactly as for ``run``. ``cpu_s`` is a per-process lifetime cap (RLIMIT_CPU). The
wall limit is not applied to the process: a host that talks to it in requests applies a wall limit per
request, by reading with :meth:`SandboxProcess.read_line` ``(timeout_s)`` and calling :meth:`kill` when
the answer is late. :meth:`close` (or leaving the ``with`` block) kills every process of the sandbox and
removes its work dir and cgroup (local) or its container (docker).
"""

from __future__ import annotations

import contextlib
import os
import select
import subprocess
import threading
import time
from typing import Callable

from sandboxes.monitor import FLOOD_PAUSE_S, FLOOD_PIPE_BYTES

STDERR_TAIL_BYTES = 64 * 1024
STDERR_FREE_BYTES = 4 << 20
"""Stderr read at full speed before the drain slows to the flood pace (a chatty process stays unhindered)."""
WRITE_TIMEOUT_S = 60.0
"""How long :meth:`SandboxProcess.write` waits for a process to take its input, unless told otherwise."""


class ProcessExited(Exception):
    """The process closed its output or could not take input (it exited or was killed)."""


class SandboxProcess:
    """A started sandboxed process: ``stdin``/``stdout``/``stderr`` pipes, line reads with a deadline,
    ``kill()``, ``wait()``, ``returncode`` and ``oom_kills()`` (memory-limit kills in its sandbox so far)."""

    def __init__(self, popen: subprocess.Popen, *, backend: str, kill_tree: Callable[[], None],
                 oom_kills: Callable[[], int], cleanup: Callable[[], None], max_line_bytes: int) -> None:
        self.popen, self.backend = popen, backend
        self._kill_tree, self._oom_kills, self._cleanup = kill_tree, oom_kills, cleanup
        self.max_line_bytes = max_line_bytes
        self._buffer = bytearray()
        self._stderr = bytearray()
        self._closed = False
        self._drain = threading.Thread(target=self._drain_stderr, daemon=True)
        self._drain.start()

    @property
    def stdin(self):
        return self.popen.stdin

    @property
    def stdout(self):
        return self.popen.stdout

    @property
    def stderr(self):
        return self.popen.stderr

    @property
    def pid(self) -> int:
        return self.popen.pid

    @property
    def returncode(self) -> int | None:
        """None while it runs; then its exit code (128 + N for signal N)."""
        code = self.popen.poll()
        return None if code is None else 128 - code if code < 0 else code

    def write(self, data: bytes, timeout_s: float = WRITE_TIMEOUT_S) -> None:
        """Send ``data`` to the process's stdin; ProcessExited when it cannot take it, TimeoutError when it does not
        take it all within ``timeout_s`` (a process that never reads its input blocked the writer for good)."""
        deadline = time.monotonic() + timeout_s
        view = memoryview(data)
        try:
            fd = self.popen.stdin.fileno()
            os.set_blocking(fd, False)
            while view:
                remaining = deadline - time.monotonic()
                if remaining <= 0 or not select.select([], [fd], [], remaining)[1]:
                    raise TimeoutError(f"the sandboxed process took no input for {timeout_s:.1f} s")
                with contextlib.suppress(BlockingIOError):
                    view = view[os.write(fd, view):]
        except TimeoutError:
            raise
        except (BrokenPipeError, OSError, ValueError) as error:
            raise ProcessExited(f"the sandboxed process no longer reads its input: {error}") from error

    def read_line(self, timeout_s: float) -> bytes:
        """The next line of stdout (without the newline). TimeoutError when none comes within
        ``timeout_s``; ProcessExited at end of output or when a line passes ``max_line_bytes``."""
        deadline = time.monotonic() + timeout_s
        fd = self.popen.stdout.fileno()
        scanned = 0  # only new bytes are searched: a long line written a byte at a time costs linear time
        while (end := self._buffer.find(b"\n", scanned, self.max_line_bytes + 1)) < 0:
            scanned = len(self._buffer)
            if scanned > self.max_line_bytes:
                raise ProcessExited(f"the sandboxed process wrote a line longer than {self.max_line_bytes} bytes")
            remaining = deadline - time.monotonic()
            if remaining <= 0 or not select.select([fd], [], [], remaining)[0]:
                raise TimeoutError(f"no line from the sandboxed process within {timeout_s:.1f} s")
            chunk = os.read(fd, 1 << 16)
            if not chunk:
                raise ProcessExited("the sandboxed process closed its output")
            self._buffer += chunk
        line = bytes(self._buffer[:end])
        del self._buffer[:end + 1]
        return line

    def _drain_stderr(self) -> None:
        """Keep the last STDERR_TAIL_BYTES of stderr so that a chatty process never blocks on it. Past
        STDERR_FREE_BYTES, one read (up to a pipe-full) each FLOOD_PAUSE_S: a process flooding stderr waits on a full
        pipe instead of costing this process, and docker's daemons on the way, as much CPU as it spends itself."""
        seen = 0
        for chunk in iter(lambda: self.popen.stderr.read1(FLOOD_PIPE_BYTES), b""):
            self._stderr += chunk
            del self._stderr[:-STDERR_TAIL_BYTES]
            seen += len(chunk)
            if seen > STDERR_FREE_BYTES:
                time.sleep(FLOOD_PAUSE_S)

    def stderr_tail(self, size: int = 2000) -> str:
        """The end of what the process wrote to stderr so far."""
        return bytes(self._stderr[-size:]).decode(errors="replace")

    def oom_kills(self) -> int:
        """How many processes the memory limit has killed in this sandbox since it started."""
        return self._oom_kills()

    def wait(self, timeout_s: float | None = None) -> int:
        """Wait for the process to exit; its return code (128 + N for signal N)."""
        code = self.popen.wait(timeout_s)
        return 128 - code if code < 0 else code

    def kill(self) -> None:
        """SIGKILL every process of the sandbox (idempotent)."""
        self._kill_tree()
        if self.popen.poll() is None:
            self.popen.kill()
        self.popen.wait()

    def close(self) -> None:
        """Kill everything, close the pipes and release the sandbox (idempotent)."""
        if self._closed:
            return
        self._closed = True
        try:
            self.kill()
        finally:
            for pipe in (self.popen.stdin, self.popen.stdout):
                try:
                    pipe.close()
                except OSError:
                    pass
            self._drain.join(timeout=5)
            self._cleanup()

    def __enter__(self) -> "SandboxProcess":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
