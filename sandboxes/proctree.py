"""The processes a supervisor can see, read from /proc (by parent, by cgroup), and reaping its exited children."""

from __future__ import annotations

import os


def process_table() -> dict[int, tuple[int, str]]:
    """pid -> (parent pid, state letter) of every visible process (``Z`` marks a zombie)."""
    table: dict[int, tuple[int, str]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as handle:
                    fields = handle.read().rsplit(")", 1)[1].split()
            except OSError:
                continue
            table[int(name)] = (int(fields[1]), fields[0])
    return table


def reap_children(keep: set[int] | frozenset[int] = frozenset()) -> bool:
    """Collect every exited child of this process without waiting; False when one of ``keep`` was among them."""
    lost = False
    while True:
        try:
            pid, _status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return not lost
        if pid == 0:
            return not lost
        lost = lost or pid in keep


def pids_in_cgroup(fragment: str) -> list[int]:
    """Pids of the processes whose cgroup path contains ``fragment`` (e.g. a container's id)."""
    found = []
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/cgroup") as handle:
                    if fragment in handle.read():
                        found.append(int(name))
            except OSError:
                continue
    return found
