"""What the local backend can apply on this host (bubblewrap, unshare, cgroups, root) and the argv/preexec
that apply it."""

from __future__ import annotations

import functools
import os
import resource
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from typing import Callable, Mapping

from sandboxes import hostfs, linux, rootview, seccomp
from sandboxes.base import Limits
from sandboxes.cgroups import Cgroup

NOBODY = (65534, 65534)
RUN_UID_BASE, RUN_UID_SPAN = 200_000, 60_000  # unused ids: each run gets its own, when we are root
SECCOMP_CLAIM = "io_uring, keyrings, bpf, perf events, userfaultfd, namespaces and mounts blocked"
WRAPPER_PROCS = 3  # bwrap (or unshare), its namespace init, slack
UNSHARE_MAPS = ("--map-current-user", "--map-root-user")
FILTERED_LAUNCH = "import sys; sys.path.insert(0, {root!r}); from sandboxes.seccomp import exec_filtered; " \
                  "exec_filtered(sys.argv[1:])"
"""Under unshare the command starts through this (python -I -S -c): it installs the same seccomp filter bubblewrap
loads, then becomes the command, which stays PID 1 of its namespace (nothing of ours for it to reach)."""


@dataclass(frozen=True)
class HostCaps:
    """Facts probed once per process."""

    bwrap: bool
    unshare: bool
    root: bool
    cgroups: bool
    private_mounts: bool = False
    """Root may build a private mount namespace (needed to show e.g. /root/.pyenv to another uid)."""
    unshare_map: str = "--map-current-user"
    """How unshare maps the run's uid into its user namespace: to itself where util-linux can (2.38+), else to
    root (the uid outside is still the run's own)."""

    @property
    def mode(self) -> str:
        return "bwrap" if self.bwrap else "unshare" if self.unshare else "none"


@dataclass
class Plan:
    """How one command is started: the full argv, the Popen env and the child's set-up hook."""

    argv: list[str]
    env: dict[str, str]
    preexec: Callable[[], None]
    pass_fds: tuple[int, ...] = ()
    """Descriptors the child inherits (the seccomp program bubblewrap reads); :meth:`close` closes them here."""

    def close(self) -> None:
        """Close this side of :attr:`pass_fds` once the child has started."""
        for fd in self.pass_fds:
            os.close(fd)


def _works(argv: list[str]) -> bool:
    def drop() -> None:
        if os.geteuid() == 0:
            _drop_privileges(NOBODY)
    try:
        return subprocess.run(argv, capture_output=True, timeout=10, preexec_fn=drop).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def _private_mounts_work() -> bool:
    if os.geteuid() != 0:
        return False

    def private_namespace() -> None:
        hostfs.enter_private_mount_namespace()
        rootview.private_view(folder, 1, hostfs.readonly_dirs([]))
    folder = tempfile.mkdtemp()
    try:
        return subprocess.run(["/usr/bin/true"], preexec_fn=private_namespace, timeout=10).returncode == 0
    except (OSError, subprocess.SubprocessError):
        return False
    finally:
        os.rmdir(folder)


def _cgroups_work() -> bool:
    try:
        Cgroup.create(64, 8).remove()
        return True
    except OSError:
        return False


@functools.lru_cache(maxsize=1)
def probe() -> HostCaps:
    """Which protections this host allows (cached)."""
    links = [arg for path, target in hostfs.merged_usr_links() if target for arg in ("--symlink", target, path)]
    bwrap = bool(shutil.which("bwrap")) and _works(
        ["bwrap", "--unshare-all", "--die-with-parent", "--ro-bind", "/usr", "/usr", *links, "--proc", "/proc",
         "/usr/bin/true"])
    maps = [m for m in UNSHARE_MAPS if shutil.which("unshare") and _works(
        ["unshare", "--user", m, "--net", "--pid", "--fork", "--kill-child", "--mount-proc", "/usr/bin/true"])]
    return HostCaps(bwrap=bwrap, unshare=bool(maps), root=os.geteuid() == 0, cgroups=_cgroups_work(),
                    private_mounts=_private_mounts_work(), unshare_map=maps[0] if maps else UNSHARE_MAPS[0])


def run_as(caps: HostCaps, limits: Limits) -> tuple[int, int] | None:
    """The uid/gid for a run: a fresh unprivileged one when we are root, unless the toolchain would then be
    unreachable (it lies below a folder only root may enter and no private mount can expose it)."""
    if not caps.root:
        return None
    hidden = hostfs.hidden_paths(shown_paths(caps, limits))
    return run_ids() if caps.private_mounts or not hidden else None


def shown_paths(caps: HostCaps, limits: Limits) -> list[str]:
    """The host folders a run must see read-only: toolchains, the Python installation, the run's extra paths and,
    under unshare, this package (its seccomp launcher imports it)."""
    launcher = [hostfs.package_dir()] if caps.mode == "unshare" and seccomp.available() else []
    return hostfs.readonly_dirs([*limits.extra_ro_paths, *launcher])


def run_ids() -> tuple[int, int]:
    """A fresh unprivileged uid/gid for one run, so that concurrent runs neither share RLIMIT_NPROC
    accounting nor may signal one another."""
    uid = RUN_UID_BASE + secrets.randbelow(RUN_UID_SPAN)
    return uid, uid


def _drop_privileges(ids: tuple[int, int]) -> None:
    os.setgroups([])
    os.setgid(ids[1])
    os.setuid(ids[0])


def _rlimits(limits: Limits, caps: HostCaps) -> list[tuple[int, int]]:
    cpu = int(limits.cpu_s) + 1
    out = [(resource.RLIMIT_CPU, cpu), (resource.RLIMIT_FSIZE, limits.disk_mb * 1024 * 1024),
           (resource.RLIMIT_NOFILE, 1024), (resource.RLIMIT_CORE, 0)]
    if not caps.cgroups:  # RLIMIT_NPROC counts every process of the uid, hence the per-run uid when root
        out += [(resource.RLIMIT_DATA, limits.memory_mb * 1024 * 1024),
                (resource.RLIMIT_NPROC, limits.pids + WRAPPER_PROCS)]
    return out


def _own_view(caps: HostCaps) -> bool:
    """Without bubblewrap, root builds the read-only view and private /tmp itself."""
    return caps.private_mounts and not caps.bwrap


def preexec_hook(caps: HostCaps, limits: Limits, cgroup: Cgroup | None, ids: tuple[int, int] | None,
                 workdir: str) -> Callable[[], None]:
    """The child-side set-up: join the cgroup, set rlimits, arrange the mounts, drop root."""
    rlimits = _rlimits(limits, caps)
    shown = shown_paths(caps, limits)
    hidden = hostfs.hidden_paths(shown) if ids else []
    own_view = _own_view(caps)
    devices = hostfs.accelerator_devices() if limits.gpu else []
    # with no wrapper to load it, the child installs the seccomp filter itself, last, just before the exec
    filter_program = seccomp.program() if caps.mode == "none" and seccomp.available() else None

    def setup() -> None:
        if cgroup is not None:
            cgroup.attach(0)
        for which, value in rlimits:
            hard = value + 1 if which == resource.RLIMIT_CPU else value
            resource.setrlimit(which, (value, hard))
        if hidden or own_view:
            hostfs.enter_private_mount_namespace()
        if hidden:
            hostfs.expose_to_unprivileged(hidden)
        if own_view:
            rootview.private_view(workdir, limits.disk_mb, shown, devices)
            if caps.mode == "none":  # no wrapper made namespaces: IPC objects are the run's own, network off
                linux.unshare(linux.CLONE_NEWIPC | (0 if limits.network else linux.CLONE_NEWNET))
        if ids is not None:
            _drop_privileges(ids)
        linux.set_parent_death_signal(signal.SIGKILL)  # after the uid change, which clears it
        if filter_program is not None:
            linux.set_no_new_privs()
            linux.set_seccomp_filter(filter_program)
    return setup


def bwrap_prefix(limits: Limits, workdir: str, env: Mapping[str, str], seccomp_fd: int | None = None) -> list[str]:
    """bubblewrap arguments: new namespaces, read-only toolchains, private /tmp, writable work dir only, and the
    seccomp filter read from ``seccomp_fd`` (see :mod:`sandboxes.seccomp`). The command is PID 1 of its pid
    namespace (``--as-pid-1``, as under unshare): no reaper process of the job's uid sits above it, which the
    job could trace and make report another exit status."""
    args = ["bwrap", "--unshare-user", "--unshare-pid", "--unshare-ipc", "--unshare-uts", "--unshare-cgroup-try",
            "--die-with-parent", "--new-session", "--cap-drop", "ALL", "--hostname", "sandbox", "--as-pid-1"]
    if seccomp_fd is not None:
        args += ["--seccomp", str(seccomp_fd)]
    if not limits.network:
        args.append("--unshare-net")
    inside = hostfs.inside_workdir(limits.extra_ro_paths)
    # the private /tmp comes first, so that read-only paths below /tmp are bound on top of it, not hidden
    args += ["--size", str(limits.disk_mb * 1024 * 1024), "--tmpfs", "/tmp"]
    for path in hostfs.readonly_dirs(limits.extra_ro_paths):
        args += ["--ro-bind", path, path]
    for path, target in hostfs.merged_usr_links():
        args += ["--symlink", target, path] if target else ["--ro-bind", path, path]
    args += ["--dev", "/dev", "--ro-bind", "/dev/null", "/dev/pts/ptmx"]  # the host's pty pool is global: none
    if limits.gpu:
        for device in hostfs.accelerator_devices():
            args += ["--dev-bind", device, device]
    # bubblewrap's /dev is a tmpfs of half the host's memory, /dev/shm a folder in it: cap /dev/shm like /tmp and
    # make the rest of /dev read-only, or a job could store gigabytes there past its disk cap
    args += ["--size", str(limits.disk_mb * 1024 * 1024), "--tmpfs", "/dev/shm", "--remount-ro", "/dev"]
    args += ["--proc", "/proc", "--bind", workdir, inside, "--chdir", inside, "--clearenv"]
    for name, value in env.items():
        args += ["--setenv", name, value]
    return args + ["--remount-ro", "/", "--"]


def unshare_prefix(caps: HostCaps, limits: Limits) -> list[str]:
    """util-linux unshare: new user, pid, IPC, UTS and (unless allowed) network namespaces; the command then
    starts through :data:`FILTERED_LAUNCH` where the seccomp filter can be built for this machine."""
    args = ["unshare", "--user", caps.unshare_map, "--pid", "--ipc", "--uts", "--fork", "--kill-child",
            "--mount-proc"]
    if not limits.network:
        args.append("--net")
    launch = [sys.executable, "-I", "-S", "-c", FILTERED_LAUNCH.format(root=hostfs.package_root())] \
        if seccomp.available() else []
    return [*args, "--", *launch]


def protections(caps: HostCaps, limits: Limits, disk_capped: bool, ids: tuple[int, int] | None) -> dict[str, object]:
    """A plain account of what this run is protected by."""
    namespaced = caps.mode != "none"
    return {
        "isolation": caps.mode,
        "network_off": (namespaced or _own_view(caps)) and not limits.network,
        "pid_namespace": namespaced,
        "ipc_namespace": namespaced or _own_view(caps),
        "read_only_host": "mount" if caps.bwrap or _own_view(caps) else ("other uid" if ids else False),
        "private_tmp": caps.bwrap or _own_view(caps),
        "user": "a fresh unprivileged uid per run" if ids else f"uid {os.geteuid()}",
        "memory_limit": "cgroup (tree, no swap)" if caps.cgroups else "RLIMIT_DATA (per process)",
        "pids_limit": "cgroup" if caps.cgroups else "RLIMIT_NPROC",
        "cpu_quota": f"{limits.cpus:g} cores (cgroup)" if caps.cgroups else "none (RLIMIT_CPU only)",
        "disk_limit": "tmpfs size cap" if disk_capped else "RLIMIT_FSIZE + polling",
        "environment": "allow-list",
        "seccomp": SECCOMP_CLAIM if seccomp.available() else "none",
    }


def build_plan(caps: HostCaps, argv: list[str], limits: Limits, workdir: str, env: dict[str, str],
               cgroup: Cgroup | None, disk_capped: bool, ids: tuple[int, int] | None) -> Plan:
    """Wrap ``argv`` in the strongest isolation this host offers; ``ids`` is the uid/gid to run as (root only)."""
    hook = preexec_hook(caps, limits, cgroup, ids, workdir)
    if caps.bwrap:
        fd = seccomp.program_fd() if seccomp.available() else None
        return Plan(bwrap_prefix(limits, workdir, env, fd) + argv, {"PATH": env["PATH"]}, hook,
                    () if fd is None else (fd,))
    if caps.unshare:
        return Plan(unshare_prefix(caps, limits) + argv, env, hook)
    return Plan(list(argv), env, hook)
