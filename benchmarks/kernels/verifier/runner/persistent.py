"""Host side of the persistent trusted runner: one long-lived sandboxed server verifies many candidates.

:class:`PersistentRunner` holds one server (:mod:`benchmarks.kernels.verifier.runner.server`) started with
``Sandbox.spawn`` and sends it one request per candidate, each with a fresh nonce; the answer is
checked exactly like the one-shot runner's (:func:`launch.parse_verdict`): the host reads on after the
signed verdict until the server says ``AKREADY``, so a second signed line is seen, and a server that dies
or exits instead has its verdict refused. The wall limit
(``EvalConfig.timeout_s``) applies per request. A server that dies, hangs, runs out of memory, finds
its sandbox unclean, changes settings or has served ``MAX_REQUESTS`` requests is replaced before the
next candidate; only the candidate during which it failed gets the crash/timeout verdict.
:class:`VerifierPool` shares runners among threads (pass it as ``harness.evaluate(runner=...)``).
"""

from __future__ import annotations

import json
import secrets
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from benchmarks.kernels.verifier.runner.launch import (EvalConfig, RunnerOutcome, parse_verdict, request_digest,
                                                       runner_config, runner_environment, runner_outcome,
                                                       signed_payload)
from sandboxes.base import RunResult, Sandbox
from sandboxes.process import ProcessExited, SandboxProcess
from sandboxes.targets.base import RunnerSettings

SERVER_ARGV = ("-P", "-m", "benchmarks.kernels.verifier.runner.server")
START_TIMEOUT_S = 180.0
READY_TIMEOUT_S = 30.0
MAX_REQUESTS = 200
"""Requests per server before it is replaced (bounds its memory growth and its lifetime CPU cap)."""


class TrustedRunner(Protocol):
    """What ``harness.evaluate`` calls to verify one candidate (the one-shot default is ``run_trusted``)."""

    def run(self, task_source: str, solution_source: str, settings: RunnerSettings, cache_dir: Path | None,
            sandbox: Sandbox, config: EvalConfig) -> RunnerOutcome: ...


@dataclass
class _Server:
    process: SandboxProcess
    key: str
    served: int = 0


class PersistentRunner:
    """A long-lived trusted runner, restarted transparently whenever it cannot go on."""

    def __init__(self) -> None:
        self._server: _Server | None = None
        self.started = 0
        """How many servers this runner has started (tests and benchmarks read it)."""
        self.retired: list[str] = []
        """Why each server before the current one was stopped."""

    def run(self, task_source: str, solution_source: str, settings: RunnerSettings, cache_dir: Path | None,
            sandbox: Sandbox, config: EvalConfig) -> RunnerOutcome:
        """Verify one candidate; same contract as ``launch.run_trusted``."""
        digest = request_digest(task_source, solution_source)
        request = {"task": task_source, "solution": solution_source,
                   "config": {**runner_config(settings, cache_dir, config), "request": digest}}
        for _attempt in range(2):
            server = self._server_for(settings, cache_dir, sandbox, config)
            if isinstance(server, RunResult):  # it did not come up
                return runner_outcome(parse_verdict(server, "", config))
            nonce = secrets.token_hex(16)
            record = self._exchange(server, {**request, "id": server.served, "nonce": nonce}, config)
            if record is not None:
                return runner_outcome(parse_verdict(record, nonce, config, digest))
        return runner_outcome({"status": "crashed", "reason": "the persistent runner could not start a worker twice"})

    def _server_for(self, settings: RunnerSettings, cache_dir: Path | None, sandbox: Sandbox,
                    config: EvalConfig) -> _Server | RunResult:
        """The running server for these settings, starting one when needed (a RunResult when that fails)."""
        env, limits = runner_environment(settings, cache_dir, config)
        key = json.dumps([id(sandbox), settings.hooks, env, limits.model_dump()], sort_keys=True, default=str)
        if self._server is not None and self._server.process.returncode is not None:
            self.close("exited while idle")
        elif self._server is not None and self._server.key != key:
            self.close("settings or code changed")
        elif self._server is not None and self._server.served >= MAX_REQUESTS:
            self.close(f"served {MAX_REQUESTS} requests")
        if self._server is None:
            limits = limits.model_copy(update={"cpu_s": limits.cpu_s * MAX_REQUESTS})
            try:
                process = sandbox.spawn([sys.executable, *SERVER_ARGV, settings.hooks], env=env, limits=limits)
            except Exception as error:  # the backend failed (engine gone, namespaces refused), not the candidate
                return RunResult(returncode=-1, stdout="", stderr="", sandbox_error="the sandbox could not start the "
                                 f"persistent runner: {type(error).__name__}: {error}")
            self.started += 1
            failure = _await_ready(process, START_TIMEOUT_S)
            if failure is not None:  # no candidate was involved yet: the sandbox could not bring the server up
                process.close()
                failure.sandbox_error = f"the persistent runner did not start: {failure.stderr.strip()[-500:]}"
                return failure
            self._server = _Server(process, key)
        return self._server

    def _exchange(self, server: _Server, request: dict, config: EvalConfig) -> RunResult | None:
        """Send one request; what came back as a RunResult for ``parse_verdict`` (None: retry on a new server).
        After the signed verdict the server has ``READY_TIMEOUT_S`` to say AKREADY; until then every line
        counts (a second signed one means tampering)."""
        process, lines, signed = server.process, [], False
        oom_before = process.oom_kills()
        deadline = time.monotonic() + config.timeout_s
        server.served += 1
        try:
            process.write(json.dumps(request).encode() + b"\n", config.timeout_s)
            while True:
                line = process.read_line(max(0.0, deadline - time.monotonic())).decode(errors="replace")
                if line.startswith("AKRESTART") and not signed:
                    self.close(line)
                    return None
                if line == "AKREADY" and signed:
                    return RunResult(returncode=0, stdout="\n".join(lines), stderr="")
                lines.append(line)
                if not signed and signed_payload(line, request["nonce"]) is not None:
                    signed, deadline = True, time.monotonic() + READY_TIMEOUT_S
        except (TimeoutError, ProcessExited) as error:
            timed_out = isinstance(error, TimeoutError)
        code = _exit_code(process, timed_out)
        record = RunResult(returncode=code, stdout="\n".join(lines), stderr=process.stderr_tail(),
                           timed_out=timed_out, oom_killed=process.oom_kills() > oom_before)
        self.close("timed out" if timed_out else f"exited during a request (code {code})")
        return record

    @property
    def running(self) -> bool:
        """True while a server is held."""
        return self._server is not None

    def close(self, reason: str = "closed") -> None:
        """Stop the server (a later ``run`` starts a new one)."""
        if self._server is not None:
            self._server.process.close()
            self._server = None
            self.retired.append(reason)


def _exit_code(process: SandboxProcess, hung: bool) -> int:
    """The server's exit code once it is gone (128 + N for signal N); 137 when it had to be killed (at once
    when ``hung``, else when it still runs 5 s after closing its output)."""
    if not hung:
        try:
            return process.wait(5.0)
        except subprocess.TimeoutExpired:
            pass
    process.kill()
    return process.returncode or 137


def _await_ready(process: SandboxProcess, timeout_s: float) -> RunResult | None:
    """Wait for ``AKREADY``; None when it came, else a record of why not."""
    lines = []
    try:
        deadline = time.monotonic() + timeout_s
        while True:
            line = process.read_line(max(0.0, deadline - time.monotonic())).decode(errors="replace")
            if line == "AKREADY":
                return None
            lines.append(line)
    except (TimeoutError, ProcessExited) as error:
        process.kill()
        return RunResult(returncode=process.returncode or 0, stdout="\n".join(lines),
                         stderr=f"the persistent runner did not become ready: {error}\n{process.stderr_tail()}",
                         timed_out=isinstance(error, TimeoutError))


class VerifierPool:
    """Persistent runners shared by the threads of a run: a call takes an idle runner (or starts one) and
    gives it back afterwards, so there are as many servers as evaluations ever ran at once, reused
    across thread pools. :meth:`close` stops them all."""

    def __init__(self) -> None:
        self._idle: list[PersistentRunner] = []
        self._runners: list[PersistentRunner] = []
        self._lock = threading.Lock()

    def run(self, task_source: str, solution_source: str, settings: RunnerSettings, cache_dir: Path | None,
            sandbox: Sandbox, config: EvalConfig) -> RunnerOutcome:
        """Verify one candidate on an idle runner."""
        runner = self._take()
        try:
            return runner.run(task_source, solution_source, settings, cache_dir, sandbox, config)
        finally:
            with self._lock:
                self._idle.append(runner)

    def _take(self) -> PersistentRunner:
        with self._lock:
            if self._idle:
                return self._idle.pop()
            runner = PersistentRunner()
            self._runners.append(runner)
            return runner

    @property
    def servers_started(self) -> int:
        """Servers started by all runners so far."""
        return sum(r.started for r in self._runners)

    @property
    def retired(self) -> list[str]:
        """Why servers were stopped, over all runners."""
        return [reason for r in self._runners for reason in r.retired]

    @property
    def running(self) -> bool:
        """True while any runner holds a server."""
        return any(r.running for r in self._runners)

    def close(self) -> None:
        """Stop every server (the pool stays usable: a later call starts new ones)."""
        with self._lock:
            runners = list(self._runners)
        for runner in runners:
            runner.close()

    def __enter__(self) -> "VerifierPool":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
