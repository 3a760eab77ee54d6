"""Run Python, shell commands and file writes inside one persistent sandbox session.

The session is opened lazily on the first call through ``sandboxes.select.get_sandbox()``; files
written by one call are seen by the next. Every tool here declares only the ``sandbox`` capability: an
interactive session's ``--yes`` may approve them because nothing they do leaves the sandbox.
"""

from __future__ import annotations

import threading
from typing import Any

from pydantic import BaseModel, Field

from sandboxes.base import Limits, RunResult
from tools.base import Tool

SNIPPET_FILE = "_snippet.py"
COMMAND_FILE = "_command.sh"
LONG_COMMAND_BYTES = 64 << 10
"""A shell command longer than this runs from :data:`COMMAND_FILE` (one argument may take at most 128 KiB)."""


class PythonArgs(BaseModel):
    """Arguments of `python_exec`."""

    code: str = Field(description="Python source to run with python3 in the sandbox work directory.")
    timeout_s: float = Field(60.0, gt=0, le=600, description="Wall-clock limit in seconds.")


class ShellArgs(BaseModel):
    """Arguments of `shell_exec`."""

    command: str = Field(description="A bash command line, run in the sandbox work directory.")
    timeout_s: float = Field(60.0, gt=0, le=600, description="Wall-clock limit in seconds.")


class WriteFileArgs(BaseModel):
    """Arguments of `sandbox_write_file`."""

    path: str = Field(description="Relative path inside the sandbox work directory.")
    content: str = Field(description="The file's text.")


class SandboxWorkspace:
    """One lazily opened sandbox session shared by the tools of one chat or agent."""

    def __init__(self, backend: str | None = None, limits: Limits | None = None):
        self.backend = backend
        self.limits = limits or Limits(wall_s=60.0, cpu_s=60.0, memory_mb=2048, pids=128)
        self._session: Any = None
        self._lock = threading.Lock()

    def session(self) -> Any:
        with self._lock:
            if self._session is None:
                from sandboxes.select import get_sandbox

                self._session = get_sandbox(self.backend).open(self.limits)
        return self._session

    def run(self, argv: list[str], timeout_s: float, files: dict[str, bytes] | None = None) -> RunResult:
        limits = self.limits.model_copy(update={"wall_s": timeout_s, "cpu_s": timeout_s})
        return self.session().exec(argv, files=files, limits=limits)

    def close(self) -> None:
        with self._lock:
            if self._session is not None:
                self._session.close()
                self._session = None


def describe(result: RunResult) -> dict[str, Any]:
    """The parts of a sandbox result a model needs: exit code, output, and why it was stopped."""
    record: dict[str, Any] = {"exit_code": result.returncode, "stdout": result.stdout, "stderr": result.stderr}
    stopped = [name for name in ("timed_out", "oom_killed", "cpu_exceeded", "disk_full") if getattr(result, name)]
    if stopped:
        record["stopped"] = stopped
    if result.stdout_truncated or result.stderr_truncated:
        record["truncated"] = True
    if result.sandbox_error:  # the sandbox failed, not the code: say so, or the model reads exit code 125 as its own
        record["sandbox_error"] = result.sandbox_error
    if result.notes:
        record["notes"] = result.notes
    return record


def _safe_relative(path: str) -> str:
    parts = [p for p in path.replace("\\", "/").split("/") if p not in ("", ".")]
    if not parts or ".." in parts:
        raise ValueError(f"path must be relative and stay inside the work directory: {path!r}")
    return "/".join(parts)


def make_sandbox_tools(workspace: SandboxWorkspace | None = None) -> list[Tool]:
    """``python_exec``, ``shell_exec`` and ``sandbox_write_file`` over one shared session."""
    workspace = workspace or SandboxWorkspace()

    def python_exec(args: PythonArgs) -> dict[str, Any]:
        files = {SNIPPET_FILE: args.code.encode()}
        return describe(workspace.run(["python3", SNIPPET_FILE], args.timeout_s, files))

    def shell_exec(args: ShellArgs) -> dict[str, Any]:
        script = args.command.encode()
        if len(script) > LONG_COMMAND_BYTES:  # a heredoc writing a large file
            return describe(workspace.run(["bash", COMMAND_FILE], args.timeout_s, {COMMAND_FILE: script}))
        return describe(workspace.run(["bash", "-c", args.command], args.timeout_s))

    def write_file(args: WriteFileArgs) -> dict[str, Any]:
        path = _safe_relative(args.path)
        result = workspace.run(["true"], 30.0, {path: args.content.encode()})
        return {"written": path, "bytes": len(args.content.encode()), "ok": result.ok}

    inside = ("sandbox",)
    return [
        Tool("python_exec", "Run Python code in the sandbox (no network); returns exit code, stdout and stderr.",
             PythonArgs, python_exec, group="sandbox", capabilities=inside),
        Tool("shell_exec", "Run a bash command in the sandbox (no network); returns exit code, stdout and stderr.",
             ShellArgs, shell_exec, group="sandbox", capabilities=inside),
        Tool("sandbox_write_file", "Write a text file into the sandbox work directory (persists for later calls).",
             WriteFileArgs, write_file, group="sandbox", capabilities=inside),
    ]
