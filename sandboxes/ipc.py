"""System V IPC objects (shared memory, semaphores, message queues) of this IPC namespace: list and remove them.

Standard library only: the docker container's runner removes what a job left before the next job of a warm
container starts (POSIX shared memory and message queues are files in /dev/shm and /dev/mqueue, wiped
with the other scratch folders). ``IPC_RMID`` is allowed to an object's owner or creator, so the runner
calls :func:`remove_all` as the job's uid.
"""

from __future__ import annotations

import ctypes
import os

IPC_RMID = 0
KINDS = ("shm", "sem", "msg")

_libc = ctypes.CDLL(None, use_errno=True)


def ids(kind: str, proc: str = "/proc/sysvipc") -> list[int]:
    """The ids of every object of ``kind`` (``shm``, ``sem`` or ``msg``) in this IPC namespace."""
    try:
        with open(os.path.join(proc, kind)) as handle:
            rows = handle.read().splitlines()[1:]  # the first line names the columns: key, then the id
    except OSError:
        return []
    return [int(row.split()[1]) for row in rows if len(row.split()) > 1]


def _remove(kind: str, object_id: int) -> int:
    if kind == "shm":
        return _libc.shmctl(object_id, IPC_RMID, None)
    if kind == "sem":
        return _libc.semctl(object_id, 0, IPC_RMID)
    return _libc.msgctl(object_id, IPC_RMID, None)


def remove_all() -> list[str]:
    """Remove every System V object this process may remove; the ones it could not, as ``kind id: reason``."""
    failed = []
    for kind in KINDS:
        for object_id in ids(kind):
            if _remove(kind, object_id) != 0:
                failed.append(f"{kind} {object_id}: {os.strerror(ctypes.get_errno())}")
    return failed
