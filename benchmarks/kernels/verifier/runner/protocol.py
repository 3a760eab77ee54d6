"""Messages between the trusted runner and a worker over one Unix stream socket.

A message is one JSON line. It may be followed by a binary blob (its length is the message's
``blob_bytes``; raw tensor bytes) and may carry file descriptors (SCM_RIGHTS, sent with the line's
first byte). Only JSON and raw bytes cross from worker to runner, never pickle, so a worker cannot run
code in the runner; a channel that does not accept descriptors closes any it is sent.
"""

from __future__ import annotations

import array
import json
import os
import select
import socket
import time
from typing import Any, Sequence

MAX_MESSAGE_BYTES = 1 << 20
MAX_FDS = 4
_FD_SPACE = socket.CMSG_SPACE(MAX_FDS * array.array("i").itemsize)


class ChannelClosed(Exception):
    """The other side exited, closed its end or broke the protocol."""


class ChannelTimeout(Exception):
    """No reply within the allowed time."""


class Channel:
    """Newline-delimited JSON (plus blobs and descriptors) over one connected Unix stream socket."""

    def __init__(self, sock: socket.socket, accept_fds: bool = False) -> None:
        self.sock = sock
        self.accept_fds = accept_fds
        self._buffer = b""
        self._fds: list[int] = []

    @classmethod
    def pair(cls) -> tuple["Channel", socket.socket]:
        """A runner-side channel and the worker's end of its socket."""
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        return cls(ours), theirs

    def fileno(self) -> int:
        """The socket's descriptor."""
        return self.sock.fileno()

    def send(self, message: dict[str, Any], blob: Any = None, fds: Sequence[int] = ()) -> None:
        """Write one message, then ``blob`` (anything with the buffer protocol); a closed peer raises
        ChannelClosed."""
        view = memoryview(blob).cast("B") if blob is not None else None
        if view is not None:
            message = {**message, "blob_bytes": view.nbytes}
        data = (json.dumps(message) + "\n").encode()
        try:
            if fds:
                sent = socket.send_fds(self.sock, [data], list(fds))
                data = data[sent:]
            self.sock.sendall(data)
            if view is not None and view.nbytes:
                self.sock.sendall(view)
        except OSError as error:
            raise ChannelClosed(str(error)) from error

    def receive(self, timeout_s: float | None = None, max_blob_bytes: int = 1 << 34) -> dict[str, Any]:
        """Read one message, waiting at most ``timeout_s`` seconds (None: forever). A blob comes back as
        ``message["blob"]`` (a bytearray), descriptors as ``message["fds"]``."""
        deadline = None if timeout_s is None else time.monotonic() + timeout_s
        while b"\n" not in self._buffer:
            self._fill(deadline, timeout_s)
            if len(self._buffer) > MAX_MESSAGE_BYTES:
                raise ChannelClosed("peer sent an oversized message")
        line, _, self._buffer = self._buffer.partition(b"\n")
        message = _decode(line)
        size = message.pop("blob_bytes", None)
        if size is not None:
            if not isinstance(size, int) or not 0 <= size <= max_blob_bytes:
                raise ChannelClosed(f"peer announced a blob of {size!r} bytes (at most {max_blob_bytes})")
            message["blob"] = self._read_blob(size, deadline, timeout_s)
        if self._fds:
            message["fds"], self._fds = self._fds, []
        return message

    def close(self) -> None:
        """Close the socket (and any descriptors received but not yet handed out)."""
        for fd in self._fds:
            os.close(fd)
        self._fds = []
        self.sock.close()

    def _wait(self, deadline: float | None, timeout_s: float | None) -> None:
        remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
        ready, _, _ = select.select([self.sock], [], [], remaining)
        if not ready:
            raise ChannelTimeout(f"no reply within {timeout_s:.1f} s")

    def _fill(self, deadline: float | None, timeout_s: float | None) -> None:
        self._wait(deadline, timeout_s)
        try:
            chunk, ancillary, _flags, _addr = self.sock.recvmsg(65536, _FD_SPACE)
        except OSError as error:
            raise ChannelClosed(str(error)) from error
        self._take_fds(ancillary)
        if not chunk:
            raise ChannelClosed("peer closed the channel")
        self._buffer += chunk

    def _take_fds(self, ancillary: list) -> None:
        for level, kind, data in ancillary:
            if level != socket.SOL_SOCKET or kind != socket.SCM_RIGHTS:
                continue
            fds = array.array("i")
            fds.frombytes(data[: len(data) - len(data) % fds.itemsize])
            for fd in fds:
                if self.accept_fds:
                    self._fds.append(fd)
                else:
                    os.close(fd)

    def _read_blob(self, size: int, deadline: float | None, timeout_s: float | None) -> bytearray:
        blob = bytearray(size)
        have = min(size, len(self._buffer))
        blob[:have], self._buffer = self._buffer[:have], self._buffer[have:]
        view = memoryview(blob)
        while have < size:
            self._wait(deadline, timeout_s)
            try:
                got = self.sock.recv_into(view[have:], size - have)
            except OSError as error:
                raise ChannelClosed(str(error)) from error
            if not got:
                raise ChannelClosed("peer closed the channel in the middle of a blob")
            have += got
        return blob


def _decode(line: bytes) -> dict[str, Any]:
    try:
        message = json.loads(line)
    except ValueError as error:
        raise ChannelClosed(f"peer sent malformed data: {error}") from error
    if not isinstance(message, dict):
        raise ChannelClosed("peer sent a non-object message")
    return message
