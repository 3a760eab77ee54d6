"""Per-run control groups (v1 or v2): memory without swap, pids, CPU accounting and a whole-tree kill.

Used when this process may create cgroups (root, or a delegated v2 subtree); otherwise the caller
falls back to rlimits and reports that it did.
"""

from __future__ import annotations

import os
import signal
import time
import uuid
from pathlib import Path

ROOT = Path("/sys/fs/cgroup")
V1_CONTROLLERS = ("memory", "pids", "cpuacct", "cpu", "freezer")
V1_ROLES = {"cpuacct": "cpu", "cpu": "quota"}  # role names: cpu = accounting, quota = bandwidth limit
CFS_PERIOD_US = 100_000
PREFIX = "agentkiln-"
TCP_SHARE, TCP_MIN_BYTES = 8, 16 << 20


def tcp_buffer_limit(memory_bytes: int) -> int:
    """The cgroup v1 limit of a job's TCP buffers: an eighth of its memory, at least 16 MiB. v1 counts them apart
    from the memory limit and from the peak reported, out of the host's one TCP pool (``net.ipv4.tcp_mem``): at the
    memory limit itself a job had its memory twice over, and one job at 1.7 GiB pushed the host's TCP past its
    pressure level, where every connection on the host slows or fails."""
    return min(memory_bytes, max(TCP_MIN_BYTES, memory_bytes // TCP_SHARE))


def own_path(controller: str) -> str:
    """This process's cgroup path for ``controller`` ('' for the v2 unified hierarchy)."""
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _num, names, path = line.split(":", 2)
        if controller in names.split(","):
            return path
    return "/"


def _write(path: Path, value: str) -> None:
    path.write_text(value)


class Cgroup:
    """One cgroup per run. ``dirs`` maps a role (memory, pids, cpu, freezer) to its directory."""

    def __init__(self, dirs: dict[str, Path], version: int) -> None:
        self.dirs = dirs
        self.version = version
        self._procs_files = sorted({str(d / "cgroup.procs") for d in dirs.values()})

    @classmethod
    def create(cls, memory_mb: int, pids: int, cpus: float | None = None) -> "Cgroup":
        """Create and limit a fresh cgroup (``cpus``: a CPU quota in cores); raises OSError when not allowed."""
        name = f"{PREFIX}{os.getpid()}-{uuid.uuid4().hex[:12]}"  # the owner's pid: the janitor ends its orphans
        group = cls._create_v1(name) if (ROOT / "memory" / "cgroup.procs").exists() else cls._create_v2(name)
        try:
            group._limit(memory_mb * 1024 * 1024, pids)
            if cpus:
                group._limit_cpu(cpus)
        except OSError:
            group.remove()
            raise
        return group

    @classmethod
    def existing(cls) -> dict[str, "Cgroup"]:
        """Every per-run cgroup below this process's own, by name (what the janitor looks through)."""
        version = 1 if (ROOT / "memory" / "cgroup.procs").exists() else 2
        found: dict[str, dict[str, Path]] = {}
        for controller in (V1_CONTROLLERS if version == 1 else ("",)):
            parent = ROOT / controller / own_path(controller).lstrip("/")
            for group in parent.glob(f"{PREFIX}*") if parent.is_dir() else ():
                roles = [V1_ROLES.get(controller, controller)] if version == 1 else \
                    ["memory", "pids", "cpu", "quota", "freezer"]
                found.setdefault(group.name, {}).update(dict.fromkeys(roles, group))
        return {name: cls(dirs, version) for name, dirs in found.items()}

    @classmethod
    def _create_v1(cls, name: str) -> "Cgroup":
        dirs: dict[str, Path] = {}
        try:
            for controller in V1_CONTROLLERS:
                if not (ROOT / controller).is_dir():
                    continue
                path = ROOT / controller / own_path(controller).lstrip("/") / name
                path.mkdir(exist_ok=path.resolve() in {d.resolve() for d in dirs.values()})  # cpu,cpuacct
                dirs[V1_ROLES.get(controller, controller)] = path
        except OSError:
            cls(dirs, 1).remove()
            raise
        return cls(dirs, 1)

    @classmethod
    def _create_v2(cls, name: str) -> "Cgroup":
        parent = ROOT / own_path("").lstrip("/")
        enabled = (parent / "cgroup.subtree_control").read_text().split()
        if not {"memory", "pids"} <= set(enabled):
            raise OSError(f"cgroup v2 controllers memory+pids are not delegated to {parent}")
        path = parent / name
        path.mkdir()
        return cls({role: path for role in ("memory", "pids", "cpu", "quota", "freezer")}, 2)

    def _limit(self, memory_bytes: int, pids: int) -> None:
        """Memory (and, on v1, swap and TCP buffers: v1 charges loopback TCP buffers to no cgroup unless this
        limit is set, and a job's sockets took 3 GiB of host memory; see :func:`tcp_buffer_limit`) and processes."""
        if self.version == 1:
            _write(self.dirs["memory"] / "memory.limit_in_bytes", str(memory_bytes))
            optional = {"memory.memsw.limit_in_bytes": memory_bytes,
                        "memory.kmem.tcp.limit_in_bytes": tcp_buffer_limit(memory_bytes)}
            for name, value in optional.items():
                if (self.dirs["memory"] / name).exists():
                    _write(self.dirs["memory"] / name, str(value))
            _write(self.dirs["memory"] / "memory.swappiness", "0")
        else:
            _write(self.dirs["memory"] / "memory.max", str(memory_bytes))
            _write(self.dirs["memory"] / "memory.swap.max", "0")
        _write(self.dirs["pids"] / "pids.max", str(pids))

    def _limit_cpu(self, cpus: float) -> None:
        quota = max(int(cpus * CFS_PERIOD_US), 1000)
        if self.version == 1 and "quota" in self.dirs:
            _write(self.dirs["quota"] / "cpu.cfs_period_us", str(CFS_PERIOD_US))
            _write(self.dirs["quota"] / "cpu.cfs_quota_us", str(quota))
        elif self.version == 2 and (self.dirs["quota"] / "cpu.max").exists():
            _write(self.dirs["quota"] / "cpu.max", f"{quota} {CFS_PERIOD_US}")

    def attach(self, pid: int) -> None:
        """Move ``pid`` into this cgroup (called in the child before exec: no allocation-heavy work)."""
        for procs in self._procs_files:
            with open(procs, "w") as handle:
                handle.write(str(pid))

    def cpu_seconds(self) -> float:
        if self.version == 1:
            return int((self.dirs["cpu"] / "cpuacct.usage").read_text()) / 1e9
        stats = dict(line.split() for line in (self.dirs["cpu"] / "cpu.stat").read_text().splitlines())
        return int(stats["usage_usec"]) / 1e6

    def peak_memory_bytes(self) -> int:
        name = "memory.max_usage_in_bytes" if self.version == 1 else "memory.peak"
        path = self.dirs["memory"] / name
        return int(path.read_text()) if path.exists() else 0

    def oom_kills(self) -> int:
        name = "memory.oom_control" if self.version == 1 else "memory.events"
        return oom_kill_count((self.dirs["memory"] / name).read_text())

    def pids(self) -> list[int]:
        found: set[int] = set()
        for procs in self._procs_files:
            try:
                found.update(int(p) for p in Path(procs).read_text().split())
            except FileNotFoundError:
                pass
        return sorted(found)

    def kill_all(self, timeout_s: float = 5.0) -> bool:
        """SIGKILL every process in the group, frozen first so that a fork bomb cannot outrun it."""
        deadline = time.monotonic() + timeout_s
        while self.pids() and time.monotonic() < deadline:
            if self.version == 2:
                _write(self.dirs["pids"] / "cgroup.kill", "1")
            else:
                self._freeze_and_kill()
            time.sleep(0.005)
        return not self.pids()

    def _freeze_and_kill(self) -> None:
        state = self.dirs["freezer"] / "freezer.state"
        _write(state, "FROZEN")
        for _ in range(200):
            if state.read_text().strip() == "FROZEN":
                break
            time.sleep(0.001)
        for pid in self.pids():
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        _write(state, "THAWED")

    def remove(self) -> None:
        """Remove the group's directories (it must be empty)."""
        for path in set(self.dirs.values()):
            for _ in range(50):
                try:
                    path.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.01)


def oom_kill_count(text: str) -> int:
    """The ``oom_kill`` counter of a cgroup's memory.oom_control (v1) or memory.events (v2) text."""
    for line in text.splitlines():
        key, _, value = line.partition(" ")
        if key == "oom_kill":
            return int(value)
    return 0


def oom_kills_in(path: str) -> int:
    """:func:`oom_kill_count` of the file at ``path``; 0 when it cannot be read."""
    try:
        with open(path) as handle:
            return oom_kill_count(handle.read())
    except (OSError, ValueError):
        return 0
