"""JSON lines to and from a container's runner over the engine's attach socket (stdin in, stdout out).

The socket is the container's lifeline: when this process dies the kernel closes it, the engine closes
the runner's stdin (``stdin_once``), the runner exits and the engine removes the container.

Each answer must repeat its request's ``id`` and come alone: a malformed, out-of-step or extra line means
something other than the runner wrote to its output, and is fatal (:class:`ChannelClosed`, the container is
discarded).
"""

from __future__ import annotations

import json
import select
import socket
import time

from sandboxes.errors import UserError

STDOUT, STDERR = 1, 2


class ChannelClosed(Exception):
    """The runner went away or did not answer in time."""


class Channel:
    """Request/answer over a hijacked attach connection with Docker's 8-byte stream frame headers."""

    def __init__(self, attach_socket) -> None:
        self._wrapper = attach_socket  # keeps the HTTP response alive
        self.sock: socket.socket = attach_socket._sock
        self._pending = bytearray()
        self._lines: list[bytes] = []
        self.stderr = bytearray()

    def send(self, message: dict) -> None:
        try:
            self.sock.sendall(json.dumps(message).encode() + b"\n")
        except OSError as error:
            raise ChannelClosed(f"runner unreachable: {error}") from error

    def answer(self, request_id: str, timeout_s: float) -> dict:
        """The answer to request ``request_id``; ChannelClosed for anything else, or anything more."""
        deadline = time.monotonic() + timeout_s
        while not self._lines:
            self._read_frame(deadline)
        try:
            answer = json.loads(self._lines.pop(0))
        except ValueError as error:
            raise ChannelClosed(f"malformed answer from the runner: {error}") from error
        if not isinstance(answer, dict) or answer.get("id") != request_id:
            raise ChannelClosed("out-of-step answer: it does not carry the id of the request")
        self.check_quiet()
        if "user_error" in answer:
            raise UserError(answer["user_error"])
        if "error" in answer:
            raise ChannelClosed(f"runner error: {answer['error']}")
        return answer

    def check_quiet(self) -> None:
        """ChannelClosed when output is waiting that no request asked for (or the runner went away)."""
        while not self._lines and not self._pending and select.select([self.sock], [], [], 0)[0]:
            self._read_frame(time.monotonic() + 1.0)
        if self._lines or self._pending:
            raise ChannelClosed("the runner's output holds a line that answers no request")

    def _read_frame(self, deadline: float) -> None:
        header = self._read_exact(8, deadline)
        stream, size = header[0], int.from_bytes(header[4:8], "big")
        payload = self._read_exact(size, deadline)
        if stream == STDERR:
            self.stderr = (self.stderr + payload)[-4096:]
            return
        self._pending += payload
        if b"\n" in payload:  # split only when a line ends: a long answer comes in many frames (linear, not quadratic)
            *lines, rest = self._pending.split(b"\n")
            self._pending = bytearray(rest)
            self._lines += [bytes(line) for line in lines if line.strip()]

    def _read_exact(self, size: int, deadline: float) -> bytes:
        data = bytearray()
        while len(data) < size:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise ChannelClosed("runner did not answer in time")
            self.sock.settimeout(remaining)
            try:
                chunk = self.sock.recv(size - len(data))
            except (socket.timeout, OSError) as error:
                raise ChannelClosed(f"runner connection failed: {error}") from error
            if not chunk:
                raise ChannelClosed("runner closed its output" + self._stderr_hint())
            data += chunk
        return bytes(data)

    def _stderr_hint(self) -> str:
        text = self.stderr.decode(errors="replace").strip().splitlines()
        return f" ({text[-1]})" if text else ""

    def close(self) -> None:
        try:
            self.sock.close()
        finally:
            self._wrapper.close()
