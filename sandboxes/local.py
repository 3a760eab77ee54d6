"""The local backend: a supervised subprocess in bubblewrap (or unshare) with cgroup or rlimit limits."""

from __future__ import annotations

import atexit
import errno
import os
import shutil
import subprocess
import tempfile
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, Mapping, Sequence

from sandboxes import guarantees, hostfs, isolation, janitor, linux, records, workdir
from sandboxes.base import Limits, RunResult
from sandboxes.cgroups import Cgroup
from sandboxes.envpolicy import check_exec, sandbox_env
from sandboxes.monitor import ProcessGroupTree, run_monitored
from sandboxes.process import SandboxProcess

DISK_POLL_EVERY = 5  # check the work dir size on every 5th limit check when no tmpfs cap exists
_LASTING_THREAD = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sandbox-spawn")
"""Starts spawned processes: the parent-death signal fires when the *thread* that forked a process ends,
so a long-lived process must not be forked by a short-lived thread (e.g. of a per-step thread pool)."""


class _CgroupTree:
    """Measure and kill a run through its cgroup (catches daemons that left the session)."""

    def __init__(self, cgroup: Cgroup) -> None:
        self.cgroup = cgroup

    def cpu_seconds(self) -> float:
        return self.cgroup.cpu_seconds()

    def kill_all(self) -> None:
        self.cgroup.kill_all()


class _WorkDir:
    """A work directory, a size-capped tmpfs when this process may mount one."""

    def __init__(self, base: str, disk_mb: int, owner: tuple[int, int] | None, root: bool) -> None:
        self.path = os.path.join(base, uuid.uuid4().hex[:12])
        os.mkdir(self.path, 0o755)
        self.owner = owner
        self.capped = False
        if root:
            try:
                linux.mount_tmpfs(self.path, disk_mb, *(owner or (0, 0)))
                self.capped = True
            except OSError:
                if owner:
                    os.chown(self.path, *owner)
        self.cap_bytes = disk_mb * 1024 * 1024

    def is_full(self) -> bool:
        if self.capped:
            stats = os.statvfs(self.path)
            return stats.f_bavail * stats.f_frsize < 64 * 1024
        return workdir.tree_size(self.path) >= self.cap_bytes

    def remove(self) -> None:
        if self.capped:
            linux.umount(self.path)
        shutil.rmtree(self.path, ignore_errors=True)


HOST_EXHAUSTED = (errno.ENFILE, errno.EMFILE, errno.ENOMEM, errno.EAGAIN, errno.ENOSPC)
"""Why the host may fail to start a job: its file table, memory, processes or disk are taken (by another job, as
a red-team job that filled the open-file table did)."""


WRAPPER_FAILED = "bwrap: "
"""How bubblewrap's own failures start (a namespace it could not create, with the user's process count at its
limit): the job never ran, so its exit status 1 is a sandbox failure, not the job's."""


def _host_exhausted(error: OSError) -> RunResult:
    """A job the host could not start: a sandbox failure, never the job's outcome."""
    return RunResult(returncode=125, stdout="", stderr="", backend="local",
                     sandbox_error=f"the host could not start the job: {error}",
                     notes=[f"the host could not start the job: {error}"])


def _release(cgroup: Cgroup | None) -> None:
    """Kill what is left in a command's cgroup and remove it."""
    if cgroup is not None:
        cgroup.kill_all()
        cgroup.remove()
    linux.release_unix_socket()  # what the job left in flight is freed now, not whenever the host next closes one


class LocalSession:
    """One work dir shared by many ``exec`` calls; each call is a fresh, fully supervised process tree."""

    def __init__(self, sandbox: "LocalSandbox", limits: Limits) -> None:
        self.sandbox = sandbox
        self.limits = limits
        self.workdir = _WorkDir(sandbox.base_dir, limits.disk_mb, isolation.run_as(sandbox.caps, limits),
                                sandbox.caps.root)

    def exec(self, argv: Sequence[str], *, files: Mapping[str, bytes] | None = None,
             env: Mapping[str, str] | None = None, limits: Limits | None = None,
             collect: Sequence[str] = ()) -> RunResult:
        limits = limits or self.limits
        full_env, cgroup = self._prepare(argv, files, env, limits)
        try:
            return records.report(self._run(list(argv), limits, full_env, cgroup, collect), argv)
        except OSError as error:
            if error.errno not in HOST_EXHAUSTED:
                raise
            return records.report(_host_exhausted(error), argv)
        finally:
            _release(cgroup)

    def spawn(self, argv: Sequence[str], *, files: Mapping[str, bytes] | None = None,
              env: Mapping[str, str] | None = None, limits: Limits | None = None,
              cleanup: Callable[[], None] = lambda: None) -> SandboxProcess:
        """Start ``argv`` with pipes in this session's work dir (see sandboxes.process for the limits);
        ``cleanup`` runs after the process's cgroup is gone when it is closed."""
        limits = limits or self.limits
        full_env, cgroup = self._prepare(argv, files, env, limits)
        try:
            plan, tree = self._plan(list(argv), limits, full_env, cgroup)
            try:
                popen = _LASTING_THREAD.submit(
                    subprocess.Popen, plan.argv, env=plan.env, cwd=self.workdir.path, stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True, preexec_fn=plan.preexec,
                    pass_fds=plan.pass_fds, close_fds=True).result()
            finally:
                plan.close()
        except BaseException:
            _release(cgroup)
            raise
        if isinstance(tree, ProcessGroupTree):
            tree.pgid = popen.pid

        def release() -> None:
            _release(cgroup)
            cleanup()
        return SandboxProcess(popen, backend="local", kill_tree=tree.kill_all,
                              oom_kills=cgroup.oom_kills if cgroup is not None else lambda: 0, cleanup=release,
                              max_line_bytes=limits.output_bytes)

    def _prepare(self, argv: Sequence[str], files: Mapping[str, bytes] | None, env: Mapping[str, str] | None,
                 limits: Limits) -> tuple[dict[str, str], Cgroup | None]:
        """Check the command line; write the files; build the environment and (where allowed) a fresh cgroup for
        one command."""
        inside = hostfs.inside_workdir(limits.extra_ro_paths) if self.sandbox.caps.bwrap else self.workdir.path
        full_env = sandbox_env(env, home=inside, path=self.sandbox.search_path,
                               threads=max(1, int(limits.cpus)))
        check_exec(argv, full_env)
        workdir.write_files(self.workdir.path, files or {}, owner=self.workdir.owner)
        cgroup = Cgroup.create(limits.memory_mb, limits.pids + isolation.WRAPPER_PROCS, limits.cpus) \
            if self.sandbox.caps.cgroups else None
        return full_env, cgroup

    def _run(self, argv: list[str], limits: Limits, env: dict[str, str], cgroup: Cgroup | None,
             collect: Sequence[str]) -> RunResult:
        plan, tree = self._plan(argv, limits, env, cgroup)
        deadline = time.monotonic() + limits.wall_s  # collecting the files counts against the wall limit
        try:
            outcome = run_monitored(plan.argv, env=plan.env, cwd=self.workdir.path, wall_s=limits.wall_s,
                                    cpu_s=limits.cpu_s, output_bytes=limits.output_bytes, tree=tree,
                                    preexec=plan.preexec, pass_fds=plan.pass_fds,
                                    disk_exceeded=None if self.workdir.capped else self._disk_poll())
        finally:
            plan.close()
        peak = cgroup.peak_memory_bytes() if cgroup is not None else outcome.max_rss_bytes
        oom = cgroup.oom_kills() > 0 if cgroup is not None else False
        files, notes = workdir.collect_files(self.workdir.path, collect, limits.collect_bytes,
                                             max_files=limits.collect_files, deadline=deadline)
        rejected = workdir.rejected_names(files, collect)
        notes += [f"collect: dropped {name!r}: {reason}" for name, reason in rejected.items()]
        files = {name: data for name, data in files.items() if name not in rejected}
        if cgroup is None:
            notes.append("memory limit is RLIMIT_DATA per process; an out-of-memory kill is not detectable")
        result = records.build_result(outcome, backend="local", peak_memory_bytes=peak, oom_killed=oom,
                                      disk_full=self.workdir.is_full(), files=files, notes=notes)
        if self.sandbox.caps.bwrap and result.returncode == 1 and result.stderr.startswith(WRAPPER_FAILED):
            reason = result.stderr.splitlines()[0]  # bubblewrap could not set up the job: it never ran
            result.sandbox_error = f"the sandbox could not start the job: {reason}"
            result.notes.append(result.sandbox_error)
        return result

    def _plan(self, argv: list[str], limits: Limits, env: dict[str, str],
              cgroup: Cgroup | None) -> tuple[isolation.Plan, _CgroupTree | ProcessGroupTree]:
        """How to start ``argv`` isolated in this work dir, and the process tree to measure and kill it by."""
        plan = isolation.build_plan(self.sandbox.caps, argv, limits, self.workdir.path, env, cgroup,
                                    self.workdir.capped, self.workdir.owner)
        return plan, _CgroupTree(cgroup) if cgroup is not None else ProcessGroupTree()

    def _disk_poll(self):
        calls = {"n": 0}

        def exceeded() -> bool:
            calls["n"] += 1
            return calls["n"] % DISK_POLL_EVERY == 0 and self.workdir.is_full()
        return exceeded

    def close(self) -> None:
        self.workdir.remove()

    def __enter__(self) -> "LocalSession":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class LocalSandbox:
    """Sandbox on this host without a container engine; see :attr:`protections` for what applies."""

    name = "local"

    def __init__(self, base_dir: str | None = None) -> None:
        self.caps = isolation.probe()
        parent = base_dir or os.environ.get("AGENT_SANDBOX_TMP") or tempfile.gettempdir()
        janitor.clean_stale(parent)
        self.base_dir = tempfile.mkdtemp(prefix=janitor.base_dir_name(), dir=parent)
        os.chmod(self.base_dir, 0o711)
        atexit.register(self.close)
        self.search_path = hostfs.search_path()

    @property
    def protections(self) -> dict[str, object]:
        """What a run with default limits is protected by on this host."""
        limits = Limits()
        ids = isolation.run_as(self.caps, limits)
        return isolation.protections(self.caps, limits, disk_capped=self.caps.root, ids=ids)

    @property
    def guarantees(self) -> dict[str, bool]:
        """Which of :data:`sandboxes.guarantees.GUARANTEES` this host keeps (what `agent doctor` reports)."""
        return guarantees.kept(self.caps)

    def run(self, argv: Sequence[str], *, files: Mapping[str, bytes] | None = None,
            env: Mapping[str, str] | None = None, limits: Limits | None = None,
            collect: Sequence[str] = ()) -> RunResult:
        with self.open(limits) as session:
            return session.exec(argv, files=files, env=env, collect=collect)

    def spawn(self, argv: Sequence[str], *, files: Mapping[str, bytes] | None = None,
              env: Mapping[str, str] | None = None, limits: Limits | None = None) -> SandboxProcess:
        """Start a long-lived ``argv`` with pipes in a fresh work dir (see sandboxes.process)."""
        session = self.open(limits)
        try:
            return session.spawn(argv, files=files, env=env, cleanup=session.close)
        except BaseException:
            session.close()
            raise

    def open(self, limits: Limits | None = None) -> LocalSession:
        return LocalSession(self, limits or Limits())

    def close(self) -> None:
        shutil.rmtree(self.base_dir, ignore_errors=True)
