"""PID 1 of a docker sandbox container: runs jobs sent as JSON lines on stdin, answers on stdout.

Standard library only (it runs under ``python -S`` inside the container). Requests:
``{"op": "run", ...}`` runs one command under the monitor; ``{"op": "write", "files": ...}`` only writes
files into /work (before a long-lived process is started with ``docker exec``); ``{"op": "reset"}`` kills every process and
wipes /work, /tmp and /dev/shm so that a warm container starts the next job clean. End of input (the host
process went away) ends the container.
"""

from __future__ import annotations

import base64
import json
import os
import resource
import shutil
import signal
import sys
import time
from dataclasses import asdict

from sandboxes.cgroups import oom_kills_in
from sandboxes.monitor import run_monitored
from sandboxes.proctree import process_table, reap_children
from sandboxes.workdir import collect_files, decode_files, encode_files, write_files

WORK = os.environ.get("AGENTKILN_WORKDIR", "/work")
SCRATCH = (WORK, "/tmp", "/dev/shm")
CGROUP = "/sys/fs/cgroup"


def _read_int(path: str) -> int | None:
    try:
        with open(path) as handle:
            return int(handle.read().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def _oom_kills() -> int:
    return oom_kills_in(f"{CGROUP}/memory/memory.oom_control")


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
        cpu = int(cpu_s) + 1
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
        resource.setrlimit(resource.RLIMIT_FSIZE, (disk_mb << 20, disk_mb << 20))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        with open("/proc/self/oom_score_adj", "w") as handle:
            handle.write("1000")  # the job, never the runner, is the OOM killer's choice
    return setup


def run_job(request: dict) -> dict:
    """Write the files, run the command, read back the requested files."""
    write_files(WORK, decode_files(request["files"]))
    oom_before = _oom_kills()
    outcome = run_monitored(request["argv"], env=request["env"], cwd=WORK, wall_s=request["wall_s"],
                            cpu_s=request["cpu_s"], output_bytes=request["output_bytes"], tree=ContainerTree(),
                            preexec=_job_preexec(request["cpu_s"], request["disk_mb"]))
    reap_children()  # as PID 1, collect zombies of orphans re-parented to us
    files, notes = collect_files(WORK, request["collect"], request["collect_bytes"])
    cgroup_peak = _read_int(f"{CGROUP}/memory/memory.max_usage_in_bytes") if request["peak_from_cgroup"] else None
    stats = os.statvfs(WORK)
    fields = asdict(outcome)
    fields["stdout"] = base64.b64encode(outcome.stdout).decode()
    fields["stderr"] = base64.b64encode(outcome.stderr).decode()
    return {"outcome": fields, "files": encode_files(files),
            "notes": notes, "peak_memory_bytes": cgroup_peak or outcome.max_rss_bytes,
            "oom_killed": _oom_kills() > oom_before, "disk_full": stats.f_bavail * stats.f_frsize < 64 * 1024}


def write_only(request: dict) -> dict:
    """Write the request's files into the work dir and run nothing."""
    write_files(WORK, decode_files(request["files"]))
    return {"ready": True}


def reset() -> dict:
    """Kill every job process and empty the writable places."""
    ContainerTree().kill_all()
    reap_children()  # as PID 1, collect zombies of orphans re-parented to us
    for folder in SCRATCH:
        if os.path.isdir(folder):
            for name in os.listdir(folder):
                path = os.path.join(folder, name)
                if os.path.isdir(path) and not os.path.islink(path):
                    shutil.rmtree(path, ignore_errors=True)
                else:
                    try:
                        os.unlink(path)
                    except OSError:
                        pass
    return {"ready": True}


def _answer(message: dict) -> None:
    sys.stdout.buffer.write(json.dumps(message).encode() + b"\n")
    sys.stdout.buffer.flush()


def main() -> None:
    if os.getpid() != 1:  # it kills every other process it can see: only ever as a container's init
        sys.exit("container_runner must run as PID 1 of a sandbox container")
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    _answer({"ready": True})
    handlers = {"run": run_job, "write": write_only, "reset": lambda _request: reset()}
    for line in sys.stdin.buffer:
        request = json.loads(line)
        try:
            _answer(handlers[request["op"]](request))
        except Exception as error:  # report, keep serving: the host decides whether to retire us
            _answer({"error": f"{type(error).__name__}: {error}"})


if __name__ == "__main__":
    main()
