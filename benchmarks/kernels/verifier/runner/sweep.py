"""Between two requests of the persistent runner: kill what a candidate left behind, reap it, wipe its files.

The server is a child subreaper, so every process a candidate starts stays its descendant, whether it
daemonised, called setsid or outlived its parent (orphans are adopted by the server). Killing every
descendant but the fork server, scanning /proc again until none is left, therefore reaches all of them
on every backend, also where the sandbox has no pid namespace of its own.
"""

from __future__ import annotations

import os
import shutil
import signal
import stat
import time

from sandboxes.proctree import process_table, reap_children

SCRATCH = ("/tmp", "/dev/shm")
KILL_DEADLINE_S = 10.0


def descendants(root: int, spared: set[int]) -> dict[int, str]:
    """pid -> state letter of the descendants of ``root``, leaving out ``spared`` (but not their descendants)."""
    table = process_table()
    children: dict[int, list[int]] = {}
    for pid, (parent, _state) in table.items():
        children.setdefault(parent, []).append(pid)
    found, stack = {}, list(children.get(root, []))
    while stack:
        pid = stack.pop()
        stack += children.get(pid, [])
        if pid not in spared:
            found[pid] = table[pid][1]
    return found


def kill_descendants(spared: set[int], deadline_s: float = KILL_DEADLINE_S) -> bool:
    """SIGKILL every descendant of this process but ``spared`` and reap them, until none is left, not even a
    zombie; False if time ran out or a spared process died."""
    me, deadline = os.getpid(), time.monotonic() + deadline_s
    intact = True
    while True:
        intact = reap_children(spared) and intact
        found = descendants(me, spared)
        if not found:
            return intact
        if time.monotonic() > deadline:
            return False
        for pid in (pid for pid, state in found.items() if state != "Z"):
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        time.sleep(0.002)


def _make_writable(function, path, _error) -> None:
    """rmtree's error handler: a candidate may have removed permissions; restore them and retry once."""
    try:
        os.chmod(os.path.dirname(path), 0o700)
        if not os.path.islink(path):
            os.chmod(path, 0o700)
        function(path)
    except OSError:
        pass


def _mount_points() -> list[str]:
    with open("/proc/self/mountinfo") as handle:
        return [line.split()[4] for line in handle]


def remove_entries(folder: str) -> bool:
    """Delete what this process may delete inside ``folder`` (not others' files, nothing that holds a
    mount point, e.g. a read-only cache bound below /tmp); True when nothing of ours is left."""
    if not os.path.isdir(folder):
        return True
    me, clean, mounts = os.getuid(), True, _mount_points()
    for name in os.listdir(folder):
        path = os.path.join(folder, name)
        try:
            info = os.lstat(path)
        except FileNotFoundError:
            continue
        if info.st_uid != me or any(m == path or m.startswith(path + "/") for m in mounts):
            continue
        if stat.S_ISDIR(info.st_mode):
            shutil.rmtree(path, onerror=_make_writable)
        else:
            try:
                os.unlink(path)
            except OSError:
                pass
        clean = clean and not os.path.lexists(path)
    return clean


def sweep(spared: set[int], work_dir: str) -> bool:
    """Kill leftovers and wipe the work dir and scratch folders; True when the sandbox is clean again."""
    killed = kill_descendants(spared)
    wiped = all([remove_entries(work_dir), *(remove_entries(folder) for folder in SCRATCH)])
    return killed and wiped
