"""The fork server of the persistent runner: forks every worker, and never holds a nonce.

The server forks this "zygote" right after its imports, before it reads its first request, so the
zygote's memory holds no nonce, and it never receives one: a fork request carries only a role, a
request directory and the worker's end of its channel (a socket, passed as a file descriptor over a
Unix socket). Each worker is forked twice (zygote -> short-lived middle -> worker), so that when the
middle exits the worker is adopted by the server (a child subreaper), which can then wait for it
like for a worker it forked itself. Before any untrusted code runs, a worker closes the socket,
moves into its request directory, points TMPDIR there and sends its output to ``<role>.log``.
"""

from __future__ import annotations

import json
import os
import socket

from benchmarks.kernels.verifier.runner.handles import WorkerHandle, redirect_output, worker_socket
from benchmarks.kernels.verifier.runner.protocol import Channel
from benchmarks.kernels.verifier.runner.worker import run_worker

MESSAGE_BYTES = 4096


class ZygoteGone(Exception):
    """The fork server died (e.g. killed by a candidate): the server must be replaced."""


class ForkServer:
    """The server's side: starts the zygote and asks it for workers."""

    def __init__(self) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.pid = os.fork()
        if self.pid == 0:
            ours.close()
            os._exit(_serve(theirs))
        theirs.close()
        self.sock = ours

    def fork_worker(self, role: str, directory: str, call_timeout: float) -> WorkerHandle:
        """A new worker for ``role`` in ``directory``; ZygoteGone when the zygote does not answer."""
        channel, theirs = Channel.pair()
        try:
            message = json.dumps({"role": role, "dir": directory}).encode()
            socket.send_fds(self.sock, [message], [theirs.fileno()])
            reply = self.sock.recv(MESSAGE_BYTES)
            pid = int(json.loads(reply)["pid"]) if reply else 0
        except (OSError, ValueError, KeyError) as error:
            channel.close()
            raise ZygoteGone(f"the fork server failed: {error}") from error
        finally:
            theirs.close()
        if pid <= 0:
            channel.close()
            raise ZygoteGone("the fork server is gone")
        return WorkerHandle(role, call_timeout, pid, channel)

    def alive(self) -> bool:
        """True while the zygote runs (it is this process's child: a dead one is reaped here)."""
        try:
            pid, _status = os.waitpid(self.pid, os.WNOHANG)
        except ChildProcessError:
            return False
        return pid == 0


def _serve(sock: socket.socket) -> int:
    """The zygote's loop: one worker per request until the server closes the socket."""
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)  # never the server's stdin (where requests and their nonces arrive)
    os.dup2(null, 1)
    os.close(null)
    while True:
        try:
            data, fds, _flags, _addr = socket.recv_fds(sock, MESSAGE_BYTES, 1)
        except OSError:
            return 1
        if not data:
            return 0
        try:
            pid = _fork_twice(sock, json.loads(data), fds)
        finally:
            for fd in fds:
                os.close(fd)
        sock.send(json.dumps({"pid": pid}).encode())


def _fork_twice(sock: socket.socket, request: dict, fds: list[int]) -> int:
    """Fork a middle process that forks the worker and exits; the worker's pid."""
    read_end, write_end = os.pipe()
    middle = os.fork()
    if middle == 0:
        os.close(read_end)
        worker = os.fork()
        if worker == 0:
            os.close(write_end)
            sock.close()
            os._exit(_worker_main(request, fds))
        os.write(write_end, str(worker).encode())
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end, "rb") as pipe:
        pid = int(pipe.read() or b"0")
    os.waitpid(middle, 0)  # once the middle is gone, the worker belongs to the server
    return pid


def _worker_main(request: dict, fds: list[int]) -> int:
    """Prepare the worker's surroundings, then serve the runner."""
    os.chdir(request["dir"])
    os.environ["TMPDIR"] = request["dir"]
    redirect_output(f"{request['role']}.log")
    return run_worker(request["role"], worker_socket(fds[0]))
