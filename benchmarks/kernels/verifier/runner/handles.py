"""The trusted runner's handle on one worker process: fork it, send it commands, reap or kill it."""

from __future__ import annotations

import os
import signal
import socket
import time
from typing import Any, Sequence

from benchmarks.kernels.verifier.runner.protocol import Channel, ChannelClosed, ChannelTimeout
from benchmarks.kernels.verifier.runner.verdict import Verdict
from benchmarks.kernels.verifier.runner.worker import run_worker


class WorkerHandle:
    """A worker forked from the runner before the nonce is read, with its channel and log file.

    Forking after ``import torch`` saves a torch import per worker; forking before the nonce is read
    keeps the nonce out of the worker's memory. The worker waits for ``start`` before loading code.
    """

    def __init__(self, role: str, call_timeout: float, pid: int, channel: Channel) -> None:
        """A handle on the worker ``pid`` (a child of this process) that talks over ``channel``."""
        self.role = role
        self.log_path = f"{role}.log"
        self.call_timeout = call_timeout
        self.pid = pid
        self.channel = channel
        self.exit_code: int | None = None

    @classmethod
    def fork(cls, role: str, call_timeout: float, others: Sequence["WorkerHandle"] = ()) -> "WorkerHandle":
        """Fork a worker from this process (its output goes to ``<role>.log``); it closes the channels of
        ``others`` (workers forked before it), so it cannot talk to them or read their replies."""
        channel, theirs = Channel.pair()
        pid = os.fork()
        if pid == 0:  # the worker
            channel.sock.close()
            for other in others:
                other.channel.sock.close()
            redirect_output(f"{role}.log")
            os._exit(run_worker(role, theirs))
        theirs.close()
        return cls(role, call_timeout, pid, channel)

    def request(self, message: dict[str, Any], what: str, timeout: float | None = None,
                fds: Sequence[int] = ()) -> dict[str, Any]:
        """Send a command and return the reply (replies carry no blob: outputs come through the output
        region); a dead, silent or failing worker becomes a Verdict."""
        limit = timeout or self.call_timeout
        try:
            self.channel.send(message, fds=fds)
            reply = self.channel.receive(limit, max_blob_bytes=0)
        except ChannelTimeout:
            self.kill()
            raise Verdict("timeout", f"{self.role} did not finish {what} within {limit:.0f} s", stage="timing")
        except ChannelClosed as error:
            raise self.died(what, str(error))
        if not reply.get("ok", False):
            raise Verdict(reply.get("status") or "crashed", f"{self.role} raised during {what}:\n{reply.get('error', '')}",
                          stage="run")
        return reply

    def died(self, what: str, error: str, stage: str = "run") -> Verdict:
        """The verdict for a worker that went away during ``what``: a refusal when the kernel killed it for a
        system call its confinement forbids (see :mod:`.confine`), else a crash with its exit and output."""
        detail = self.exit_detail()
        if self.exit_code == -signal.SIGSYS:
            return Verdict("rejected", f"the {self.role}'s process was killed by the kernel during {what}: it tried to "
                                       "signal, trace or re-prioritise another process (the verifier's processes are "
                                       "off limits), or to set a timer, start a process, or a thread at --threads 1 "
                                       "(a kernel computes in its call, with the threads the harness gives it)",
                           stage="isolation")
        return Verdict("crashed", f"{self.role} process died or broke the protocol during {what} ({error}): {detail}",
                       stage=stage)

    def wait(self, timeout_s: float) -> int | None:
        """Reap the worker, waiting up to ``timeout_s``; its exit code, or None if it still runs."""
        deadline = time.monotonic() + timeout_s
        while self.exit_code is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.exit_code = os.waitstatus_to_exitcode(status)
            elif time.monotonic() > deadline:
                return None
            else:
                time.sleep(0.02)
        return self.exit_code

    def exit_detail(self) -> str:
        """Exit code and the tail of the worker's output (what it printed before dying)."""
        code = self.wait(5.0)
        if code is None:
            self.kill()
            code = "killed"
        try:
            with open(self.log_path, "rb") as log:
                tail = log.read()[-1200:].decode(errors="replace").strip()
        except OSError:
            tail = ""
        return f"exit code {code}" + (f"; output tail:\n{tail}" if tail else " with no output")

    def kill(self) -> None:
        """Stop the worker (idempotent)."""
        if self.exit_code is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.wait(10.0)

    def close(self) -> None:
        """Stop the worker: it holds nothing the runner needs (its log is on disk), so it is killed rather
        than asked to exit (a torch process takes a tenth of a second to wind down; a solution's exit
        handlers could do anything)."""
        self.kill()
        self.channel.close()


def redirect_output(path: str) -> None:
    """Send this process's stdout and stderr to ``path`` and read stdin from /dev/null (a worker's surroundings)."""
    log = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.close(log)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)


def worker_socket(fd: int) -> socket.socket:
    """A socket object over an inherited descriptor (the worker's end of its channel)."""
    return socket.socket(fileno=fd)
