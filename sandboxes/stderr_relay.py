"""In a docker-spawned process's container: its stderr passes through a relay that writes a limited number of times.

``docker exec`` carries each write of the process through the docker client, dockerd, containerd and the shim as a
message of its own: a process writing stderr one byte at a time, slowly enough never to fill a pipe, made them spend
4 to 5 times its own CPU (the host's drain bounds bytes, not messages). The relay passes on what piled up in one
write, at most :data:`RATE_PER_S` writes a second after a burst of :data:`BURST`. It is a process of the job's user
that is not dumpable (the job cannot reopen the real stderr through /proc), under the jobs' filter, and no child of
the job (a job that waits for all its children does not wait for it). Standard library only: it runs in the
container.
"""

from __future__ import annotations

import os
import time

from sandboxes import linux, seccomp

RATE_PER_S, BURST = 100, 100
PIECE = 1 << 16


def relay_stderr() -> None:
    """Put a relay between this process's stderr and the real one (call just before the exec)."""
    read_end, write_end = os.pipe()
    middle = os.fork()
    if middle == 0:
        try:
            if os.fork() == 0:  # re-parented to the container's init
                os.close(write_end)
                _serve(read_end)
        finally:
            os._exit(0)
    os.waitpid(middle, 0)
    os.close(read_end)
    os.dup2(write_end, 2)
    os.close(write_end)


def _serve(read_end: int) -> None:
    """Copy the pipe to fd 2 until every writer is gone, at the limited rate."""
    linux.set_dumpable(False)
    if seccomp.available():
        seccomp.install()
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1):  # the job's stdin and stdout end with the job, not with this relay
        os.dup2(null, fd)
    os.close(null)
    tokens, last = float(BURST), time.monotonic()
    while data := os.read(read_end, PIECE):
        if not _write_all(data):
            return
        now = time.monotonic()
        tokens = min(float(BURST), tokens + (now - last) * RATE_PER_S) - 1
        last = now
        if tokens < 0:
            time.sleep(-tokens / RATE_PER_S)


def _write_all(data: bytes) -> bool:
    """Write ``data`` to fd 2; False once the reader is gone."""
    view = memoryview(data)
    try:
        while view:
            view = view[os.write(2, view):]
    except OSError:
        return False
    return True
