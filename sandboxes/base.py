"""The Sandbox seam: run an argv over a set of files under limits, get a plain record back."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Mapping, Protocol, Sequence

from pydantic import Field

from sandboxes.settings import Config

if TYPE_CHECKING:
    from sandboxes.process import SandboxProcess


class Limits(Config):
    """Resource limits for one sandboxed command. Every limit has a safe default."""

    wall_s: float = 30.0
    """Wall-clock limit in seconds; the whole process tree is killed past it."""
    cpu_s: float = 30.0
    """CPU-time limit in seconds (user + system, all processes)."""
    memory_mb: int = 1024
    """Memory limit in MiB, swap off."""
    pids: int = 64
    """Maximum number of processes and threads."""
    output_bytes: int = 1_000_000
    """Cap on each of stdout and stderr; the rest is dropped and flagged as truncated."""
    disk_mb: int = 256
    """Cap on the size of the work directory."""
    network: bool = False
    """Allow network access. Off by default."""
    cpus: float = 1.0
    """CPU quota in cores (docker, and local where it can create cgroups)."""
    extra_ro_paths: list[str] = Field(default_factory=list)
    """Extra host paths to expose read-only inside the sandbox (e.g. a build cache)."""
    gpu: bool = False
    """Expose the host's accelerator device nodes (NVIDIA, Ascend) to the command."""
    collect_bytes: int = 64 * 1024 * 1024
    """Cap on the total size of the files read back through ``collect`` (each is sized before it is read)."""
    collect_files: int = 1000
    """Cap on the number of files read back through ``collect``; reading them counts against ``wall_s``."""


@dataclass
class RunResult:
    """What one sandboxed command did.

    ``returncode`` is 128 + N when a signal N ended the command (137 for the kill at a limit).
    ``timed_out``: wall limit; ``cpu_exceeded``: CPU limit; ``oom_killed``: memory limit; ``disk_full``: the
    work dir reached ``disk_mb``. ``files`` holds the collected files; ``notes`` what the backend could not
    do or skipped (e.g. a symlink not followed on collect). ``sandbox_error`` is set when the sandbox itself
    failed (its runner died, hung, was stopped or answered out of step): nothing the command did is known,
    and the record must not be read as the command's outcome.
    """

    returncode: int
    stdout: str
    stderr: str
    stdout_truncated: bool = False
    stderr_truncated: bool = False
    wall_s: float = 0.0
    cpu_s: float = 0.0
    peak_memory_mb: float = 0.0
    timed_out: bool = False
    oom_killed: bool = False
    files: dict[str, bytes] = field(default_factory=dict)
    backend: str = ""
    cpu_exceeded: bool = False
    disk_full: bool = False
    notes: list[str] = field(default_factory=list)
    sandbox_error: str = ""

    @property
    def ok(self) -> bool:
        failed = self.timed_out or self.oom_killed or self.cpu_exceeded or self.sandbox_error
        return self.returncode == 0 and not failed


class SandboxSession(Protocol):
    """One environment in which an agent runs many commands; files persist between them."""

    def exec(self, argv: Sequence[str], *, files: Mapping[str, bytes] | None = None,
             env: Mapping[str, str] | None = None, limits: Limits | None = None,
             collect: Sequence[str] = ()) -> RunResult: ...

    def close(self) -> None: ...


class Sandbox(Protocol):
    """An isolation backend (docker or local)."""

    name: str

    def run(self, argv: Sequence[str], *, files: Mapping[str, bytes] | None = None,
            env: Mapping[str, str] | None = None, limits: Limits | None = None,
            collect: Sequence[str] = ()) -> RunResult:
        """Run ``argv`` in a fresh work dir holding ``files``; return the files named in ``collect``."""
        ...

    def open(self, limits: Limits | None = None) -> SandboxSession:
        """Start a session whose work dir persists across ``exec`` calls."""
        ...

    def spawn(self, argv: Sequence[str], *, files: Mapping[str, bytes] | None = None,
              env: Mapping[str, str] | None = None, limits: Limits | None = None) -> "SandboxProcess":
        """Start a long-lived ``argv`` with stdin/stdout/stderr pipes in a fresh work dir holding ``files``.
        The wall limit applies per request, not per process: see :mod:`sandboxes.process`."""
        ...
