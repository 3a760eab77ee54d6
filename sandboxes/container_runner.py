"""PID 1 of a docker sandbox container: runs jobs sent as JSON lines on stdin, answers on stdout.

Standard library only (it runs under ``python -S`` inside the container). The runner is root with only
CAP_SETUID, CAP_SETGID and CAP_KILL and clears its dumpable flag; every job runs as the unprivileged
``AGENTKILN_JOB_UID`` under the filter of :mod:`sandboxes.seccomp`, so a job can neither ptrace the runner
nor open its memory, its environment or its output through /proc. The runner touches the job's files
only under the job's uid (:func:`as_job`). Requests, each with an ``id`` that its answer repeats:
``{"op": "run", ...}`` runs one command under the monitor; ``{"op": "write", "files": ...}`` only writes
files into /work (before a long-lived process is started with ``docker exec``); ``{"op": "reset"}`` kills
every process, wipes /work, /tmp, /dev/shm and /dev/mqueue and removes System V IPC objects, so that a
warm container starts the next job clean. End of input (the host process went away) ends the container;
SIGTERM ends it with status 143 (the host reports a sandbox failure, never a result).
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import signal
import sys
import time
from dataclasses import asdict

from sandboxes import ipc, linux, seccomp
from sandboxes.cgroups import oom_kills_in
from sandboxes.errors import UserError
from sandboxes.monitor import run_monitored
from sandboxes.proctree import process_table, reap_children
from sandboxes.workdir import collect_files, decode_files, write_files

WORK = os.environ.get("AGENTKILN_WORKDIR", "/work")
JOB_UID = int(os.environ.get("AGENTKILN_JOB_UID", "10001"))
SCRATCH = (WORK, "/tmp", "/dev/shm", "/dev/mqueue")
SOCKET_TABLES = ("tcp", "tcp6", "udp", "udp6", "raw", "raw6", "udplite", "udplite6", "icmp", "icmp6", "unix",
                 "ip6_flowlabel")
"""Socket tables of the container's network namespace that must be empty after a reset (the runner itself holds
no socket): ``unix`` lists sockets a job left in flight (an SCM_RIGHTS cycle outlives every process)."""
CGROUP = "/sys/fs/cgroup"


def _read_int(path: str) -> int | None:
    try:
        with open(path) as handle:
            return int(handle.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def _oom_kills() -> int:
    return oom_kills_in(f"{CGROUP}/memory/memory.oom_control")


@contextlib.contextmanager
def as_job():
    """Act on files and IPC objects with the job's uid and gid (the runner keeps root as its saved uid).

    A change of effective uid may make a process dumpable again (``fs.suid_dumpable``): clear it both ways."""
    os.setegid(JOB_UID)
    os.seteuid(JOB_UID)
    linux.set_dumpable(False)
    try:
        yield
    finally:
        os.seteuid(0)
        os.setegid(0)
        linux.set_dumpable(False)


class ContainerTree:
    """Everything in the container but PID 1 belongs to the job; CPU comes from the container's cgroup."""

    def __init__(self) -> None:
        self.cpu_start = _read_int(f"{CGROUP}/cpuacct/cpuacct.usage")

    def cpu_seconds(self) -> float | None:
        now = _read_int(f"{CGROUP}/cpuacct/cpuacct.usage")
        return None if now is None or self.cpu_start is None else (now - self.cpu_start) / 1e9

    def kill_all(self) -> None:
        """SIGKILL everything but the runner until only zombies are left (the monitor reaps its own child)."""
        for _ in range(1000):
            try:
                os.kill(-1, signal.SIGKILL)
            except ProcessLookupError:
                pass
            if not _living_others():
                return
            time.sleep(0.002)


def _living_others() -> list[int]:
    me = os.getpid()
    return [pid for pid, (_parent, state) in process_table().items() if pid != me and state != "Z"]


def _job_preexec(cpu_s: float, disk_mb: int):
    def setup() -> None:
        linux.limit_job(cpu_s, disk_mb)
        os.setgroups([])
        os.setresgid(JOB_UID, JOB_UID, JOB_UID)
        os.setresuid(JOB_UID, JOB_UID, JOB_UID)
        if seccomp.available():
            seccomp.install()
    return setup


def run_job(request: dict) -> dict:
    """Write the files, run the command, read back the requested files within the wall-clock budget."""
    deadline = time.monotonic() + request["wall_s"]
    with as_job():
        write_files(WORK, decode_files(request["files"]))
    oom_before = _oom_kills()
    outcome = run_monitored(request["argv"], env=request["env"], cwd=WORK, wall_s=request["wall_s"],
                            cpu_s=request["cpu_s"], output_bytes=request["output_bytes"], tree=ContainerTree(),
                            preexec=_job_preexec(request["cpu_s"], request["disk_mb"]))
    reap_children()  # as PID 1, collect zombies of orphans re-parented to us
    with as_job():
        try:
            os.chmod(WORK, 0o755)  # the job owns its work dir and may have made it unreadable (chmod 000)
            files, notes = collect_files(WORK, request["collect"], request["collect_bytes"],
                                         max_files=request["collect_files"], deadline=deadline)
        except OSError as error:  # what the job did to its files is its result, not a sandbox failure
            files, notes = {}, [f"collecting files failed: {error.strerror or error}"]
    cgroup_peak = _read_int(f"{CGROUP}/memory/memory.max_usage_in_bytes") if request["peak_from_cgroup"] else None
    stats = os.statvfs(WORK)
    fields = asdict(outcome)
    fields["stdout"] = base64.b64encode(outcome.stdout).decode()
    fields["stderr"] = base64.b64encode(outcome.stderr).decode()
    return {"outcome": fields, "files": files,  # encoded one file at a time as the answer is written
            "notes": notes, "peak_memory_bytes": cgroup_peak or outcome.max_rss_bytes,
            "oom_killed": _oom_kills() > oom_before, "disk_full": stats.f_bavail * stats.f_frsize < 64 * 1024}


def write_only(request: dict) -> dict:
    """Write the request's files into the work dir and run nothing."""
    with as_job():
        write_files(WORK, decode_files(request["files"]))
    return {"ready": True}


def _empty(folder: str) -> None:
    """Remove everything below ``folder`` as the job's uid, which owns all of it: each folder's mode is given back
    first, so one the job made unreadable or unwritable (chmod 000) goes too. Errors are left to the check after."""
    for entry in os.scandir(folder):
        try:
            if entry.is_dir(follow_symlinks=False):
                os.chmod(entry.path, 0o700)
                _empty(entry.path)
                os.rmdir(entry.path)
            else:
                os.unlink(entry.path)
        except (OSError, RecursionError):
            pass


def _leftovers() -> list[str]:
    """The scratch places a reset did not empty, a work dir whose mode the job changed, and sockets of the
    container's network namespace (TIME_WAIT entries outlive every process: a job encoded a secret in the ports of
    closed connections, and the next job read it from /proc/net/tcp)."""
    left = [folder for folder in SCRATCH if os.path.isdir(folder) and os.listdir(folder)]
    if os.stat(WORK).st_mode & 0o7777 != 0o755:
        left.append(f"{WORK} (mode)")
    sockets = sum(_table_rows(f"/proc/net/{table}") for table in SOCKET_TABLES)
    if sockets:
        left.append(f"{sockets} network sockets")
    return left


def _collect_sockets_in_flight() -> None:
    """Have the kernel free the Unix sockets a killed job left in flight (:func:`sandboxes.linux.release_unix_socket`;
    the collector may run a moment later), so that the reset finds the table empty; what stays is a leftover."""
    for _ in range(GC_TRIES):
        if not _table_rows("/proc/net/unix"):
            return
        linux.release_unix_socket()
        time.sleep(GC_PAUSE_S)


GC_TRIES, GC_PAUSE_S = 25, 0.02


def _table_rows(path: str) -> int:
    """Rows of a /proc/net table, its header left out (0 where the table does not exist)."""
    try:
        with open(path) as handle:
            return max(len(handle.readlines()) - 1, 0)
    except OSError:
        return 0


def reset() -> dict:
    """Kill every job process, empty the writable places (their times set to now) and remove the job's System V IPC
    objects; a container that a reset cannot bring back to clean says so (the host discards it: the next job never
    meets a leftover)."""
    ContainerTree().kill_all()
    reap_children()  # as PID 1, collect zombies of orphans re-parented to us
    _collect_sockets_in_flight()
    with as_job():
        os.chmod(WORK, 0o755)  # the job owns its work dir's root and may have made it read-only
        for folder in SCRATCH:
            if os.path.isdir(folder):
                _empty(folder)
        os.utime(WORK)  # its owner set its times to any value: 16 bytes the next job would read
        left = ipc.remove_all()
        left += _leftovers()
    for folder in SCRATCH[1:]:  # the runner's own (a job can only touch them to the present)
        with contextlib.suppress(OSError):
            os.utime(folder)
    if left:
        raise RuntimeError(f"left behind after the reset: {', '.join(left)}")
    return {"ready": True}


def _answer(message: dict) -> None:
    """Write one answer line. Collected ``files`` (raw bytes) are written last, each base64-encoded a piece at a
    time and dropped once written: the runner shares the job's memory limit, and encoding the whole answer at once
    (five copies of the files) had it killed for a job's own 40 MB result at 128 MiB."""
    out = sys.stdout.buffer
    files = message.pop("files", None)
    head = json.dumps(message).encode()
    if files is None:
        out.write(head + b"\n")
    else:
        out.write(head[:-1] + (b", " if message else b"") + b'"files": {')
        for index, name in enumerate(list(files)):
            data = memoryview(files.pop(name))
            out.write((b", " if index else b"") + json.dumps(name).encode() + b': "')
            for start in range(0, len(data), ENCODE_PIECE):
                out.write(base64.b64encode(data[start:start + ENCODE_PIECE]))
            out.write(b'"')
            del data
        out.write(b"}}\n")
    out.flush()


ENCODE_PIECE = 3 << 20  # a multiple of 3: the pieces' base64 joins into the whole's


def _serve(line: bytes, handlers: dict) -> dict:
    try:
        request = json.loads(line)
    except ValueError as error:
        return {"id": None, "error": f"unreadable request: {error}"}
    try:
        answer = handlers[request["op"]](request)
    except UserError as error:  # the caller's request cannot be done as asked (the container is fine)
        answer = {"user_error": str(error)}
    except Exception as error:  # report, keep serving: the host decides whether to retire us
        answer = {"error": f"{type(error).__name__}: {error}"}
    return {**answer, "id": request.get("id")}


def main() -> None:
    if os.getpid() != 1:  # it kills every other process it can see: only ever as a container's init
        sys.exit("container_runner must run as PID 1 of a sandbox container")
    if os.geteuid() != 0:
        sys.exit("container_runner must start as root (with only CAP_SETUID, CAP_SETGID and CAP_KILL)")
    linux.set_dumpable(False)
    os.setgroups([])
    signal.signal(signal.SIGTERM, lambda *_: os._exit(128 + signal.SIGTERM))
    _answer({"id": "ready", "ready": True})
    handlers = {"run": run_job, "write": write_only, "reset": lambda _request: reset()}
    for line in sys.stdin.buffer:
        _answer(_serve(line, handlers))


if __name__ == "__main__":
    main()
