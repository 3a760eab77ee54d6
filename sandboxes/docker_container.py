"""One hardened runner container: created, attached, started, spoken to, discarded; plus orphan reaping."""

from __future__ import annotations

import contextlib
import os
import secrets
import socket
import threading
from dataclasses import dataclass

from sandboxes import hostfs
from sandboxes.base import Limits
from sandboxes.cgroups import oom_kills_in, tcp_buffer_limit
from sandboxes.docker_channel import Channel, ChannelClosed
from sandboxes.docker_engine import container_cgroup_parent
from sandboxes.docker_image import RUNNER_DIR, host_mounts
from sandboxes.isolation import run_ids
from sandboxes.errors import UserError

LABEL = "agentkiln.sandbox"
OWNER_LABEL = "agentkiln.owner"
RUNNER_MB = 48  # the runner's own memory, added on top of the job's limit
RUNNER_CAPABILITIES = ("SETUID", "SETGID", "KILL")
OWN_NETWORK_SYSCTLS = {"net.ipv4.tcp_no_metrics_save": "1", "net.ipv4.tcp_fastopen": "0"}
"""The container's own network namespace keeps no TCP metrics (per destination, for an hour, past every socket: a
job wrote a secret into the addresses of closed connections and the next job in the warm container read it back),
and no fast-open cache (which would keep such entries too)."""
START_TIMEOUT_S = 60.0
DOCKER_SOCKETS = ("/var/run/docker.sock", "/run/docker.sock")


def _start_time(pid: int) -> str:
    with open(f"/proc/{pid}/stat") as handle:
        return handle.read().rsplit(")", 1)[1].split()[19]


def owner_id(pid: int | None = None) -> str:
    """``host:pid:start-time`` of a process, so that a recycled pid is not mistaken for its owner."""
    pid = pid or os.getpid()
    return f"{socket.gethostname()}:{pid}:{_start_time(pid)}"


def owner_alive(owner: str) -> bool:
    host, pid, started = (owner.split(":") + ["", "", ""])[:3]
    if host != socket.gethostname():
        return True  # another machine's container: not ours to judge
    try:
        return _start_time(int(pid)) == started
    except (OSError, ValueError):
        return False


def reap_orphans(client) -> int:
    """Remove sandbox containers whose owning process has died; return how many."""
    import docker

    removed = 0
    for container in client.api.containers(all=True, filters={"label": LABEL}):
        if not owner_alive((container.get("Labels") or {}).get(OWNER_LABEL, "")):
            try:
                client.api.remove_container(container["Id"], force=True)
                removed += 1
            except docker.errors.APIError:  # already gone or being removed by the engine (--rm)
                pass
    return removed


@dataclass(frozen=True)
class ContainerSpec:
    """The container-level part of :class:`Limits`; containers with equal specs are interchangeable."""

    memory_mb: int
    pids: int
    cpus: float
    disk_mb: int
    network: bool
    gpu: bool
    extra_ro_paths: tuple[str, ...]

    @classmethod
    def from_limits(cls, limits: Limits) -> "ContainerSpec":
        for path in limits.extra_ro_paths:
            real = os.path.realpath(path)
            if any(sock == real or sock.startswith(real.rstrip("/") + "/") for sock in DOCKER_SOCKETS):
                raise UserError(f"refusing to mount {path!r}: it would put the Docker socket in the sandbox")
        return cls(limits.memory_mb, limits.pids, limits.cpus, limits.disk_mb, limits.network, limits.gpu,
                   tuple(limits.extra_ro_paths))

    @property
    def workdir(self) -> str:
        return hostfs.inside_workdir(self.extra_ro_paths)


def _python(host_toolchains: bool) -> str:
    """The runner's interpreter: the host's (mounted read-only), or the image's own ``python3``."""
    return os.path.join(hostfs.python_dirs()[0], "bin", "python3") if host_toolchains else "python3"


NO_LOG = "none"
"""The engine keeps no log of a runner's output: everything goes through the attach socket, and the default
json-file log kept every job's output and collected files on the host's disk, uncapped, for the container's life
(about 9 MiB a job for a 6 MB result)."""


def _create_container(api, image: str, spec: ContainerSpec, host_toolchains: bool, uid: int) -> str:
    """Create (not start) the hardened container through the engine API; return its id.

    ``host_toolchains``: the image is the imported base image, so mount the host's /usr and Python;
    otherwise the image brings its own ``python3`` and only the runner code is mounted.
    The runner starts as root with three capabilities only (to switch to the job's uid and signal its
    processes); every job runs as ``uid`` with none: a uid of this container's own, so that jobs of concurrent
    containers share no per-user kernel limit (inotify instances, message-queue bytes, pending signals).
    """
    import docker

    python = _python(host_toolchains)
    mounts = host_mounts(list(spec.extra_ro_paths), toolchains=host_toolchains)
    mounts["/dev/null"] = {"bind": "/dev/pts/ptmx", "mode": "ro"}  # no ptys: the host's pty pool is global
    boot = f"import sys; sys.path.insert(0, {RUNNER_DIR!r}); from sandboxes.container_runner import main; main()"
    memory = f"{spec.memory_mb + RUNNER_MB}m"
    work = spec.workdir
    host_config = api.create_host_config(
        network_mode="host" if spec.network else "none", read_only=True,
        tmpfs={work: f"size={spec.disk_mb}m,uid={uid},gid={uid},mode=0755,exec",
               "/tmp": f"size={spec.disk_mb}m,mode=1777,exec"},
        binds=mounts, mem_limit=memory, memswap_limit=memory, shm_size=f"{spec.disk_mb}m",
        pids_limit=spec.pids + 2, nano_cpus=int(spec.cpus * 1e9), security_opt=["no-new-privileges"],
        cap_drop=["ALL"], cap_add=list(RUNNER_CAPABILITIES), ipc_mode="private", auto_remove=True,
        cgroup_parent=container_cgroup_parent(), log_config=docker.types.LogConfig(type=NO_LOG),
        ulimits=[docker.types.Ulimit(name="nofile", soft=1024, hard=1024)],
        sysctls=None if spec.network else OWN_NETWORK_SYSCTLS,
        device_requests=[docker.types.DeviceRequest(count=-1, capabilities=[["gpu"]])] if spec.gpu else None)
    created = api.create_container(
        image, command=[python, "-I", "-S", "-c", boot], user="0:0", working_dir=work,
        environment={"PATH": "/usr/bin:/bin", "HOME": work, "LANG": "C.UTF-8", "AGENTKILN_WORKDIR": work,
                     "AGENTKILN_JOB_UID": str(uid)},
        hostname="sandbox",
        labels={LABEL: "1", OWNER_LABEL: owner_id()}, stdin_open=True, host_config=host_config)  # + StdinOnce
    return created["Id"]


class RunnerContainer:
    """A started container whose PID 1 is the runner, reachable through :attr:`channel`."""

    def __init__(self, client, image: str, spec: ContainerSpec, host_toolchains: bool = True) -> None:
        self.api, self.spec = client.api, spec
        self.python = _python(host_toolchains)
        self.uid = run_ids()[0]
        """The uid this container's jobs (and a spawned process) run as."""
        self.id = _create_container(self.api, image, spec, host_toolchains, self.uid)
        try:
            attach = self.api.attach_socket(self.id, params={"stdin": 1, "stdout": 1, "stderr": 1, "stream": 1})
            self.channel = Channel(attach)
            self.api.start(self.id)
            self.channel.answer("ready", START_TIMEOUT_S)
        except Exception:
            self._force_remove()
            raise
        self.pending_reset: str | None = None
        parent = (container_cgroup_parent() or "/docker").strip("/")
        self._memory_dir = os.path.join("/sys/fs/cgroup/memory", parent, self.id)
        self._peak_file = os.path.join(self._memory_dir, "memory.max_usage_in_bytes")
        self._limit_tcp_buffers(tcp_buffer_limit((spec.memory_mb + RUNNER_MB) << 20))

    def _limit_tcp_buffers(self, limit_bytes: int) -> None:
        """Charge the container's TCP buffers to a limit (cgroup v1 counts them nowhere otherwise, and the engine no
        longer sets it): a job's unread loopback sockets took 1.6 GiB of host memory (see
        :func:`sandboxes.cgroups.tcp_buffer_limit`). Where the file is missing
        (cgroup v2 charges socket memory to the container) or cannot be written, nothing changes."""
        with contextlib.suppress(OSError):
            with open(os.path.join(self._memory_dir, "memory.kmem.tcp.limit_in_bytes"), "w") as handle:
                handle.write(str(limit_bytes))

    def oom_kills(self) -> int:
        """Memory-limit kills in this container so far, read from the host (cgroup v1; 0 if unreadable)."""
        return oom_kills_in(os.path.join(self._memory_dir, "memory.oom_control"))

    def reset_peak_memory(self) -> bool:
        """Zero the container's peak-memory counter from the host (root, cgroup v1); False if impossible."""
        try:
            with open(self._peak_file, "w") as handle:
                handle.write("0")
            return True
        except OSError:
            return False

    def request(self, message: dict, timeout_s: float) -> dict:
        """Send ``message`` under a fresh id and return its answer (ChannelClosed: discard this container)."""
        self.settle(timeout_s)
        request_id = secrets.token_hex(8)
        self.channel.send({**message, "id": request_id})
        return self.channel.answer(request_id, timeout_s)

    def settle(self, timeout_s: float = START_TIMEOUT_S) -> None:
        """Read the answer to a pending reset, and make sure nothing else waits in the runner's output."""
        if self.pending_reset is not None:
            reset_id, self.pending_reset = self.pending_reset, None
            self.channel.answer(reset_id, timeout_s)
        self.channel.check_quiet()

    def reset_async(self) -> None:
        """Ask the runner to clean up; the answer is read before the next request."""
        self.channel.check_quiet()
        self.pending_reset = secrets.token_hex(8)
        self.channel.send({"op": "reset", "id": self.pending_reset})

    def discard(self) -> None:
        """Close the lifeline (the runner exits, the engine removes the container) and make sure it goes."""
        self.channel.close()
        threading.Thread(target=self._force_remove, daemon=True).start()

    def _force_remove(self) -> None:
        try:
            self.api.remove_container(self.id, force=True)
        except Exception:  # already gone through auto-remove
            pass
