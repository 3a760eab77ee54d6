"""The docker backend: jobs run by a runner inside hardened containers from a warm pool (or cold)."""

from __future__ import annotations

import base64
import os
from typing import Mapping, Sequence

from sandboxes import hostfs, records
from sandboxes.base import Limits, RunResult
from sandboxes.docker_channel import ChannelClosed
from sandboxes.docker_container import ContainerSpec, RunnerContainer, reap_orphans
from sandboxes.docker_engine import client
from sandboxes.docker_image import ensure_image
from sandboxes.docker_pool import WarmPool
from sandboxes.docker_spawn import spawn_in_new_container
from sandboxes.envpolicy import check_exec, sandbox_env
from sandboxes.errors import UserError
from sandboxes.monitor import Outcome
from sandboxes.process import SandboxProcess
from sandboxes.workdir import check_relative, decode_files, encode_files, rejected_names

ANSWER_GRACE_S = 30.0


def _job_message(argv: Sequence[str], files: Mapping[str, bytes], env: dict[str, str], limits: Limits,
                 collect: Sequence[str], peak_from_cgroup: bool) -> dict:
    return {"op": "run", "argv": [str(a) for a in argv], "env": env,
            "files": encode_files(files),
            "collect": [str(check_relative(p)) for p in collect], "wall_s": limits.wall_s, "cpu_s": limits.cpu_s,
            "output_bytes": limits.output_bytes, "collect_bytes": limits.collect_bytes,
            "collect_files": limits.collect_files, "disk_mb": limits.disk_mb, "peak_from_cgroup": peak_from_cgroup}


def _checked_files(answer: dict, collect: Sequence[str], limits: Limits) -> dict[str, bytes]:
    """The answer's files, re-checked here: names under the work dir that match a pattern, within the caps."""
    problems = [f"{name!r}: {reason}" for name, reason in rejected_names(answer["files"], collect).items()]
    files = decode_files(answer["files"])
    if len(files) > limits.collect_files or sum(map(len, files.values())) > limits.collect_bytes:
        problems.append(f"{len(files)} files of {sum(map(len, files.values()))} bytes pass the collect caps")
    if problems:
        raise ChannelClosed(f"answer rejected: {'; '.join(problems[:3])}")
    return files


def _result(answer: dict, collect: Sequence[str], limits: Limits) -> RunResult:
    """The runner's answer as a RunResult; ChannelClosed when it is not one the runner could have given."""
    try:
        fields = dict(answer["outcome"])
        fields["stdout"] = base64.b64decode(fields["stdout"], validate=True)
        fields["stderr"] = base64.b64decode(fields["stderr"], validate=True)
        return records.build_result(Outcome(**fields), backend="docker",
                                    peak_memory_bytes=answer["peak_memory_bytes"], oom_killed=answer["oom_killed"],
                                    disk_full=answer["disk_full"], files=_checked_files(answer, collect, limits),
                                    notes=[str(note) for note in answer["notes"]])
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise ChannelClosed(f"answer rejected: {type(error).__name__}: {error}") from error


def _lost_runner(error: ChannelClosed) -> RunResult:
    """The runner died, hung, was stopped or answered out of step: a sandbox failure, never the job's outcome."""
    return RunResult(returncode=125, stdout="", stderr="", backend="docker",
                     sandbox_error=f"sandbox container lost: {error}",
                     notes=[f"sandbox container lost: {error}; container discarded"])


class DockerSession:
    """One container for many ``exec`` calls; files persist until :meth:`close`."""

    def __init__(self, sandbox: "DockerSandbox", limits: Limits) -> None:
        self.sandbox, self.limits = sandbox, limits
        self.container: RunnerContainer | None = sandbox.take(ContainerSpec.from_limits(limits))
        self.healthy = True

    def exec(self, argv: Sequence[str], *, files: Mapping[str, bytes] | None = None,
             env: Mapping[str, str] | None = None, limits: Limits | None = None,
             collect: Sequence[str] = ()) -> RunResult:
        if self.container is None:
            raise RuntimeError("this sandbox session is closed")
        limits = limits or self.limits
        job_env = sandbox_env(env, home=self.container.spec.workdir, path=hostfs.search_path(), threads=max(1, int(limits.cpus)))
        check_exec(argv, job_env)
        message = _job_message(argv, files or {}, job_env, limits, collect, self.container.reset_peak_memory())
        try:
            result = _result(self.container.request(message, limits.wall_s + ANSWER_GRACE_S), collect, limits)
        except ChannelClosed as error:
            self.healthy = False
            result = _lost_runner(error)
        if ContainerSpec.from_limits(limits) != self.container.spec:
            result.notes.append("memory, pids, cpus, disk, network, gpu and extra paths are the session's "
                                "(fixed when the container started); only time and output limits changed")
        return records.report(result, argv)

    def close(self) -> None:
        if self.container is not None:
            self.sandbox.give_back(self.container, self.healthy)
            self.container = None

    def __enter__(self) -> "DockerSession":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class DockerSandbox:
    """Hardened containers on the local engine; ``warm=False`` starts a fresh container for every run."""

    name = "docker"

    def __init__(self, warm: bool = True, pool_size: int = 2, image: str | None = None) -> None:
        """``image``: a prebuilt image with its own toolchains (default ``AGENT_SANDBOX_IMAGE``, else the
        imported base image with the host's toolchains mounted read-only)."""
        self.client = client()
        self.reaped = reap_orphans(self.client)
        image = image or os.environ.get("AGENT_SANDBOX_IMAGE")
        self.image = image or ensure_image(self.client)
        self.warm = warm
        self.pool = WarmPool(self.client, self.image, size=pool_size, host_toolchains=image is None)

    @property
    def protections(self) -> dict[str, object]:
        """What every container is started with."""
        return {"isolation": f"docker ({'warm pool' if self.warm else 'cold'})", "network_off": True,
                "read_only_host": "read-only root + read-only toolchain mounts", "private_tmp": True,
                "user": "jobs as a uid of their container's own; the runner (PID 1) is another uid and not dumpable",
                "capabilities": "none for jobs (the runner: setuid, setgid, kill), no-new-privileges",
                "seccomp": "Docker's default + io_uring, keyrings, bpf, namespaces, mounts, xattr writes, AIO blocked for jobs",
                "memory_limit": "cgroup (container, no swap)", "pids_limit": "cgroup",
                "disk_limit": "tmpfs size cap", "environment": "allow-list", "docker_socket": "not mounted"}

    def take(self, spec: ContainerSpec) -> RunnerContainer:
        """A container for ``spec``: from the warm pool, or a new one when the sandbox is cold."""
        return self._start(lambda: self.pool.acquire(spec) if self.warm else self.pool.new_container(spec))

    def take_new(self, spec: ContainerSpec) -> RunnerContainer:
        """A new container that will never be pooled (for :meth:`spawn`)."""
        return self._start(lambda: self.pool.new_container(spec))

    @staticmethod
    def _start(start) -> RunnerContainer:
        import docker

        try:
            return start()
        except (docker.errors.DockerException, OSError, ChannelClosed) as error:
            raise UserError(f"the docker sandbox could not start a container: {error}") from error

    def give_back(self, container: RunnerContainer, healthy: bool) -> None:
        if self.warm:
            self.pool.release(container, healthy)
        else:
            container.discard()

    def prewarm(self, limits: Limits | None = None, count: int | None = None) -> None:
        """Start idle containers for ``limits`` ahead of the first job."""
        self.pool.prewarm(ContainerSpec.from_limits(limits or Limits()), count)

    def run(self, argv: Sequence[str], *, files: Mapping[str, bytes] | None = None,
            env: Mapping[str, str] | None = None, limits: Limits | None = None,
            collect: Sequence[str] = ()) -> RunResult:
        with self.open(limits) as session:
            return session.exec(argv, files=files, env=env, collect=collect)

    def spawn(self, argv: Sequence[str], *, files: Mapping[str, bytes] | None = None,
              env: Mapping[str, str] | None = None, limits: Limits | None = None) -> SandboxProcess:
        """Start a long-lived ``argv`` with pipes in a container of its own (see sandboxes.docker_spawn)."""
        return spawn_in_new_container(self, argv, files, env, limits)

    def open(self, limits: Limits | None = None) -> DockerSession:
        return DockerSession(self, limits or Limits())

    def close(self) -> None:
        self.pool.close()
