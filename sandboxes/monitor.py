"""Run one process tree under a wall clock, a CPU budget and output caps; standard library only.

The same loop runs on the host (local backend) and inside a container (docker backend's runner),
so it imports nothing else from this project.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import os
import selectors
import signal
import subprocess
import time
from dataclasses import dataclass
from typing import Callable, Mapping, Protocol, Sequence

POLL_S = 0.05
DRAIN_S = 1.0


class ProcessTree(Protocol):
    """How a run's processes are measured and killed (cgroup, process group, whole container)."""

    def cpu_seconds(self) -> float | None:
        """CPU seconds used by the whole tree so far, or None when only known at exit."""

    def kill_all(self) -> None:
        """SIGKILL every process of the run, including ones that left the session."""


class ProcessGroupTree:
    """The fallback tree: the session started for the command (daemons that setsid away escape it)."""

    def __init__(self) -> None:
        self.pgid = 0

    def cpu_seconds(self) -> float | None:
        return None

    def kill_all(self) -> None:
        if self.pgid:
            try:
                os.killpg(self.pgid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass


@dataclass
class Outcome:
    """Raw facts about one finished run."""

    returncode: int
    stdout: bytes
    stderr: bytes
    stdout_truncated: bool
    stderr_truncated: bool
    wall_s: float
    cpu_s: float
    max_rss_bytes: int
    timed_out: bool
    cpu_exceeded: bool
    disk_exceeded: bool


class _Capped:
    """Keep the first ``cap`` bytes of a stream and count the rest."""

    def __init__(self, cap: int) -> None:
        self.cap, self.data, self.dropped = cap, bytearray(), 0

    def feed(self, chunk: bytes) -> int:
        """Keep what fits of ``chunk`` and count the rest; its length."""
        room = self.cap - len(self.data)
        self.data += chunk[:max(room, 0)]
        self.dropped += max(len(chunk) - max(room, 0), 0)
        return len(chunk)


def exit_code(status: int) -> int:
    """Shell/Docker convention: a signal N becomes 128 + N."""
    code = os.waitstatus_to_exitcode(status)
    return 128 - code if code < 0 else code


def run_monitored(argv: Sequence[str], *, env: Mapping[str, str], cwd: str, wall_s: float, cpu_s: float,
                  output_bytes: int, tree: ProcessTree, preexec: Callable[[], None] | None = None,
                  pass_fds: Sequence[int] = (), disk_exceeded: Callable[[], bool] | None = None) -> Outcome:
    """Start ``argv`` in a new session and supervise it until it and its pipes are done."""
    start = time.monotonic()
    proc = subprocess.Popen(list(argv), env=dict(env), cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True, preexec_fn=preexec,
                            pass_fds=tuple(pass_fds), close_fds=True)
    if isinstance(tree, ProcessGroupTree):
        tree.pgid = proc.pid
    outputs = {proc.stdout.fileno(): _Capped(output_bytes), proc.stderr.fileno(): _Capped(output_bytes)}
    flags = {"timed_out": False, "cpu_exceeded": False, "disk_exceeded": False}
    status, rusage = _supervise(proc, outputs, start, wall_s, cpu_s, tree, flags, disk_exceeded)
    wall = time.monotonic() - start
    out, err = outputs[proc.stdout.fileno()], outputs[proc.stderr.fileno()]
    proc.stdout.close()
    proc.stderr.close()
    tree_cpu = tree.cpu_seconds()
    cpu = tree_cpu if tree_cpu is not None else rusage.ru_utime + rusage.ru_stime
    code = exit_code(status)
    if code == 128 + signal.SIGXCPU or (code == 128 + signal.SIGKILL and not flags["timed_out"]
                                        and cpu >= cpu_s * 0.95):
        flags["cpu_exceeded"] = True  # RLIMIT_CPU fired (a per-process backstop to the tree's budget)
    return Outcome(code, bytes(out.data), bytes(err.data), out.dropped > 0, err.dropped > 0, wall, cpu,
                   rusage.ru_maxrss * 1024, **flags)


def _supervise(proc, outputs, start, wall_s, cpu_s, tree, flags, disk_exceeded):
    """Pump the pipes and enforce the limits until the main process has exited and the pipes closed."""
    pidfd = os.pidfd_open(proc.pid)
    sel = selectors.DefaultSelector()
    for fd in outputs:
        os.set_blocking(fd, False)
        sel.register(fd, selectors.EVENT_READ)
    sel.register(pidfd, selectors.EVENT_READ)
    status = rusage = None
    drain_deadline = None
    next_check = start + POLL_S
    try:
        while status is None or (outputs.keys() & {k.fd for k in sel.get_map().values()}):
            now = time.monotonic()
            limit_at = drain_deadline if status is not None else min(next_check, start + wall_s)
            for key, _ in sel.select(max(limit_at - now, 0)):
                if key.fd == pidfd:
                    sel.unregister(pidfd)
                    _pid, status, rusage = os.wait4(proc.pid, 0)
                    tree.kill_all()  # daemons left behind die with the run
                    drain_deadline = time.monotonic() + DRAIN_S
                else:
                    _read_into(key.fd, outputs[key.fd], sel)
            now = time.monotonic()
            if status is not None:
                if now >= drain_deadline:
                    break
            elif now >= next_check or now >= start + wall_s:
                next_check = now + POLL_S
                _check_limits(now - start, wall_s, cpu_s, tree, flags, disk_exceeded)
    finally:
        sel.close()
        os.close(pidfd)
    return status, rusage


def _read_into(fd: int, capped: _Capped, sel: selectors.BaseSelector) -> None:
    """One read of a job's stream into ``capped``. Past the cap the kernel moves the bytes to /dev/null itself
    (``splice``) a pipe-full at a time, ``FLOOD_PAUSE_S`` apart: a job flooding its output drained this process of
    as much CPU as it spent itself; now it waits on a full pipe, as on a slow terminal."""
    flooding = len(capped.data) >= capped.cap and hasattr(os, "splice")  # Python 3.10+
    if flooding and not capped.dropped:
        with contextlib.suppress(OSError):
            fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, FLOOD_PIPE_BYTES)
    try:
        count = os.splice(fd, _devnull(), FLOOD_PIPE_BYTES) if flooding else capped.feed(os.read(fd, 1 << 16))
    except BlockingIOError:
        return
    if not count:
        sel.unregister(fd)
    elif flooding:
        capped.dropped += count
        time.sleep(FLOOD_PAUSE_S)


FLOOD_PIPE_BYTES = 1 << 20
FLOOD_PAUSE_S = 0.01
"""Past the output cap, up to 1 MiB is dropped every 10 ms (100 MB/s): enough for a chatty job, cheap for the host."""


@functools.cache
def _devnull() -> int:
    return os.open(os.devnull, os.O_WRONLY | os.O_CLOEXEC)


def _check_limits(elapsed, wall_s, cpu_s, tree, flags, disk_exceeded) -> None:
    """Kill the tree when a limit is passed, recording which one."""
    if elapsed >= wall_s:
        flags["timed_out"] = True
    else:
        used = tree.cpu_seconds()
        if used is not None and used >= cpu_s:
            flags["cpu_exceeded"] = True
        elif disk_exceeded is not None and disk_exceeded():
            flags["disk_exceeded"] = True
        else:
            return
    tree.kill_all()
