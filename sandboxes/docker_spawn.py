"""``DockerSandbox.spawn``: a long-lived process with pipes in a container of its own.

The container is started like every other (hardened, its runner as PID 1, never taken from or returned
to the warm pool). The files are written through the runner, then ``docker exec -i`` starts the
process as the sandbox user in the work dir (through :data:`FILTERED_EXEC`, which applies the jobs'
seccomp filter first), so its stdin/stdout/stderr are plain pipes of the local ``docker`` client.
Killing or closing it removes the whole container: a process started by ``docker exec`` does not die
with the client.
"""

from __future__ import annotations

import shutil
import subprocess
from typing import Mapping, Sequence

from sandboxes import hostfs
from sandboxes.base import Limits
from sandboxes.docker_channel import ChannelClosed
from sandboxes.docker_container import ContainerSpec, RunnerContainer
from sandboxes.docker_image import RUNNER_DIR
from sandboxes.envpolicy import check_exec, sandbox_env
from sandboxes.errors import UserError
from sandboxes.process import SandboxProcess
from sandboxes.workdir import encode_files

WRITE_TIMEOUT_S = 60.0


FILTERED_EXEC = (f"import sys; sys.path.insert(0, {RUNNER_DIR!r}); from sandboxes.linux import limit_job; "
                 "from sandboxes.seccomp import exec_filtered; from sandboxes.stderr_relay import relay_stderr; "
                 "limit_job({cpu_s}, {disk_mb}); relay_stderr(); exec_filtered(sys.argv[1:])")
"""Runs first in a spawned process (``python -I -S``: nothing of the work dir is importable): it sets the job's limits
as a runner's job gets them, puts its stderr behind a relay (:mod:`sandboxes.stderr_relay`), installs the jobs'
seccomp filter, then becomes the command."""


def exec_argv(container: RunnerContainer, argv: Sequence[str], env: Mapping[str, str], limits: Limits) -> list[str]:
    """The ``docker exec -i`` command line that starts ``argv`` in ``container`` as the sandbox user, under the
    same limits and seccomp filter as a job of the runner."""
    docker = shutil.which("docker")
    if docker is None:
        raise UserError("the docker sandbox's spawn needs the docker command-line client (apt-get install docker.io)")
    options = [f"--env={name}={value}" for name, value in env.items()]
    return [docker, "exec", "-i", f"--user={container.uid}:{container.uid}", f"--workdir={container.spec.workdir}",
            *options, container.id, container.python, "-I", "-S", "-c",
            FILTERED_EXEC.format(cpu_s=float(limits.cpu_s), disk_mb=int(limits.disk_mb)), *[str(a) for a in argv]]


def write_files(container: RunnerContainer, files: Mapping[str, bytes]) -> None:
    """Put ``files`` into the container's work dir through its runner."""
    if files:
        container.request({"op": "write", "files": encode_files(files)}, WRITE_TIMEOUT_S)


def spawn(container: RunnerContainer, argv: Sequence[str], files: Mapping[str, bytes] | None,
          env: Mapping[str, str] | None, limits: Limits) -> SandboxProcess:
    """Start ``argv`` in ``container`` (which the returned process owns and removes when closed)."""
    try:
        job_env = sandbox_env(env, home=container.spec.workdir, path=hostfs.search_path(),
                              threads=max(1, int(limits.cpus)))
        check_exec(argv, job_env)
        write_files(container, files or {})
        popen = subprocess.Popen(exec_argv(container, argv, job_env, limits), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, start_new_session=True, close_fds=True)
    except (ChannelClosed, OSError) as error:
        container.discard()
        raise UserError(f"the docker sandbox could not start the process: {error}") from error
    except BaseException:
        container.discard()
        raise
    return SandboxProcess(popen, backend="docker", kill_tree=container.discard, oom_kills=container.oom_kills,
                          cleanup=lambda: None, max_line_bytes=limits.output_bytes)


def spawn_in_new_container(sandbox, argv: Sequence[str], files: Mapping[str, bytes] | None,
                           env: Mapping[str, str] | None, limits: Limits | None) -> SandboxProcess:
    """``DockerSandbox.spawn``: a fresh container for this process alone."""
    limits = limits or Limits()
    container = sandbox.take_new(ContainerSpec.from_limits(limits))
    return spawn(container, argv, files, env, limits)
