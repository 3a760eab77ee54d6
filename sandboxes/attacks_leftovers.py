"""Selftest cases about what one job leaves to the host or the next job: IPC objects, and files that are
costly to collect. The next job's probe (:data:`NEXT_RUN` in the selftest) looks for this case's IPC
objects by their key and name.
"""

from __future__ import annotations

import time

from sandboxes.attack_kit import TIGHT, Attack, flags, python_job
from sandboxes.base import Limits, Sandbox

IPC_OBJECTS = """
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
IPC_CREAT = 0o1000

def make_ipc(key, name):
    made = []
    shm = libc.shmget(key, 4096, IPC_CREAT | 0o666)
    if shm >= 0:
        libc.shmat.restype = ctypes.c_void_p
        address = libc.shmat(shm, None, 0)
        ctypes.memmove(address, name.encode(), len(name))  # the secret the next job would read
        made.append("shm")
    made += [kind for kind, rc in (("sem", libc.semget(key, 1, IPC_CREAT | 0o666)),
                                   ("msg", libc.msgget(key, IPC_CREAT | 0o666))) if rc >= 0]
    libc.mq_open.restype = ctypes.c_int
    if libc.mq_open(("/" + name).encode(), os.O_CREAT | os.O_RDWR, 0o666, None) >= 0:
        made.append("mqueue")
    try:
        with open("/dev/shm/" + name, "w") as handle:
            handle.write(name)
        made.append("posix-shm")
    except OSError:
        pass
    return made

def find_ipc(key, name):
    found = [kind for kind, rc in (("shm", libc.shmget(key, 0, 0)), ("sem", libc.semget(key, 0, 0)),
                                   ("msg", libc.msgget(key, 0, 0))) if rc >= 0]
    libc.mq_open.restype = ctypes.c_int
    if libc.mq_open(("/" + name).encode(), os.O_RDONLY) >= 0:
        found.append("mqueue")
    if os.path.exists("/dev/shm/" + name):
        found.append("posix-shm")
    return found
"""


def ipc_key(marker: str) -> int:
    """The System V key a case's objects are created under (from the marker's last hex digits)."""
    return int(marker[-8:], 16) & 0x7FFFFFFF


def ipc_left(sandbox: Sandbox, marker: str) -> tuple[bool, str]:
    """Shared memory (holding a secret), a semaphore, a message queue, a POSIX queue and POSIX shm, left for
    the next job; the selftest's next-run probe must not find any of them."""
    code = IPC_OBJECTS + f"\nprint('MADE', make_ipc({ipc_key(marker)}, {marker!r}))"
    result = python_job(sandbox, code, marker, TIGHT)  # the next-run probe's container
    return result.returncode == 0 and "MADE" in result.stdout, f"{flags(result)} {result.stdout.strip()!r:.120}"


def collect_cost(sandbox: Sandbox, marker: str) -> tuple[bool, str]:
    """Twelve sparse 250 MB files and 300 small ones to collect: refused by size and count, within the budget."""
    limits = Limits(wall_s=10.0, cpu_s=10.0, collect_files=100)  # the default 256 MB disk: sparse 250 MB files fit
    code = """
        import os
        for index in range(12):
            with open(f"huge{index}.bin", "wb") as handle:
                handle.truncate(250 * 2**20)
        for index in range(300):
            with open(f"small{index}.bin", "wb") as handle:
                handle.write(b"x")
        print("made")
        """
    started = time.monotonic()
    result = python_job(sandbox, code, marker, limits, collect=["*.bin"])
    elapsed = time.monotonic() - started
    huge = [name for name in result.files if name.startswith("huge")]
    within = len(result.files) <= limits.collect_files and sum(map(len, result.files.values())) <= limits.collect_bytes
    capped = any("cap on their number" in note for note in result.notes)
    ok = "made" in result.stdout and not huge and within and capped and elapsed < limits.wall_s + 5.0
    return ok, (f"{flags(result)} host wait {elapsed:.2f}s; {len(result.files)} files back, huge ones: "
                f"{len(huge)}; count cap noted: {capped}")


def locked_leftovers(sandbox: Sandbox, marker: str) -> tuple[bool, str]:
    """Plant a json.py in the work dir, lock it (chmod 0555) and folders in /work, /tmp and /dev/shm (chmod 000)
    holding secrets; the next job, with no files of its own, must import the real json, see none of it and keep
    its own exit status (a warm container that kept them ran the planted module inside the next job)."""
    planted = f"""
        import os
        for folder in ("/tmp", "/dev/shm", "."):
            locked = os.path.join(folder, "locked-{marker}")
            os.makedirs(locked, exist_ok=True)
            open(os.path.join(locked, "secret"), "w").write("{marker}")
            os.chmod(locked, 0)
        open("json.py", "w").write("import os\\nprint('PLANTED {marker}')\\nos._exit(0)\\n")
        os.chmod(".", 0o555)
        print("planted")
        """
    first = python_job(sandbox, planted, marker, TIGHT)
    second = python_job(sandbox, f"""
        import glob, json, os, sys
        seen = [p for folder in ("/tmp", "/dev/shm", ".") for p in glob.glob(os.path.join(folder, "*{marker}*"))]
        print("SEEN", seen, "work", os.listdir("."), json.__file__)
        sys.exit(7)
        """, marker, TIGHT)
    ok = "planted" in first.stdout and second.returncode == 7 and "SEEN [] work []" in second.stdout
    return ok, f"first {flags(first)}; next job rc={second.returncode} {second.stdout.strip()!r:.160}"


def folder_flood(sandbox: Sandbox, marker: str) -> tuple[bool, str]:
    """A work dir of 150,000 empty folders in chains 50 deep and nothing else, with files to collect: the
    collection (which yields no file at all) must still stop at the run's wall-clock budget."""
    limits = TIGHT.model_copy(update={"wall_s": 4.0, "cpu_s": 4.0, "memory_mb": 512, "disk_mb": 256})
    code = """
        import os
        for chain in range(3000):
            os.makedirs("/".join([f"d{chain}"] + ["x"] * 49))
        print("made")
        """
    started = time.monotonic()
    result = python_job(sandbox, code, marker, limits, collect=["**/*.txt"])
    elapsed = time.monotonic() - started
    ok = elapsed < limits.wall_s + 5.0
    return ok, f"{flags(result)} host wait {elapsed:.2f}s for a {limits.wall_s:.0f}s run; {result.stdout.strip()!r:.40}"


LEFTOVER_ATTACKS = [Attack(f.__name__, f) for f in (ipc_left, collect_cost, locked_leftovers, folder_flood)]
