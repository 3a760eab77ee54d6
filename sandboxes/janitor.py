"""Clean up after local sandboxes whose owning process died mid-run: tmpfs work dirs, and cgroups with what is
left in them."""

from __future__ import annotations

import glob
import os
import re
import shutil
import time

from sandboxes import cgroups, linux

BASE_PREFIX = "agentkiln-sbx-"
STALE_CGROUP_S = 3600.0


def base_dir_name() -> str:
    """The prefix of this process's base dir: it names the owner pid so that others can tell it died."""
    return f"{BASE_PREFIX}{os.getpid()}-"


def _owner_dead(path: str, prefix: str = BASE_PREFIX) -> bool:
    match = re.match(rf"{prefix}(\d+)-", os.path.basename(path))
    return bool(match) and not os.path.exists(f"/proc/{match.group(1)}")


def _mounts_below(folder: str) -> list[str]:
    with open("/proc/self/mountinfo") as handle:
        points = [line.split()[4] for line in handle]
    return sorted((p for p in points if p.startswith(folder.rstrip("/") + "/")), key=len, reverse=True)


def clean_stale_work_dirs(parent: str) -> int:
    """Unmount and delete base dirs of dead owners below ``parent``; return how many."""
    removed = 0
    for folder in glob.glob(os.path.join(parent, f"{BASE_PREFIX}*")):
        if not _owner_dead(folder):
            continue
        for point in _mounts_below(folder):
            try:
                linux.umount(point)
            except OSError:
                pass
        shutil.rmtree(folder, ignore_errors=True)
        removed += 1
    return removed


def clean_stale_cgroups() -> int:
    """Remove the per-run cgroups of owners that died, after killing what is left in them (a daemon that
    left its session survives the owner's death when no namespace ties it to the run), and empty ones older
    than an hour (a younger empty one may be about to be used); return how many."""
    removed = 0
    for name, group in cgroups.Cgroup.existing().items():
        try:
            if _owner_dead(name, cgroups.PREFIX):
                group.kill_all()
            elif time.time() - next(iter(group.dirs.values())).stat().st_mtime <= STALE_CGROUP_S:
                continue
            if not group.pids():
                group.remove()
                removed += 1
        except (OSError, KeyError):  # KeyError: a v1 group without a freezer folder cannot be killed here
            pass
    return removed


def clean_stale(parent: str) -> int:
    """Both cleanups; never raises."""
    try:
        return clean_stale_work_dirs(parent) + clean_stale_cgroups()
    except OSError:
        return 0
