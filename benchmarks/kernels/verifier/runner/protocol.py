"""JSON messages over a pair of pipes between the trusted runner and a worker.

Only JSON crosses from worker to runner (never pickle), and tensors travel as ``torch.save``
files read back with ``weights_only=True``, so a worker cannot run code in the runner.
"""

from __future__ import annotations

import json
import os
import select
import time
from typing import Any

MAX_MESSAGE_BYTES = 1 << 20


class ChannelClosed(Exception):
    """The other side exited or closed its pipe."""


class ChannelTimeout(Exception):
    """No reply within the allowed time."""


class Channel:
    """Newline-delimited JSON over a read fd and a write fd."""

    def __init__(self, read_fd: int, write_fd: int) -> None:
        self.read_fd = read_fd
        self.write_fd = write_fd
        self._buffer = b""

    def send(self, message: dict[str, Any]) -> None:
        """Write one message; a closed peer raises ChannelClosed."""
        data = (json.dumps(message) + "\n").encode()
        try:
            while data:
                data = data[os.write(self.write_fd, data):]
        except (BrokenPipeError, OSError) as error:
            raise ChannelClosed(str(error)) from error

    def receive(self, timeout_s: float | None = None) -> dict[str, Any]:
        """Read one message, waiting at most ``timeout_s`` seconds (None: forever)."""
        deadline = None if timeout_s is None else time.monotonic() + timeout_s
        while b"\n" not in self._buffer:
            remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
            ready, _, _ = select.select([self.read_fd], [], [], remaining)
            if not ready:
                raise ChannelTimeout(f"no reply within {timeout_s:.1f} s")
            chunk = os.read(self.read_fd, 65536)
            if not chunk:
                raise ChannelClosed("peer closed the channel")
            self._buffer += chunk
            if len(self._buffer) > MAX_MESSAGE_BYTES:
                raise ChannelClosed("peer sent an oversized message")
        line, _, self._buffer = self._buffer.partition(b"\n")
        try:
            message = json.loads(line)
        except ValueError as error:
            raise ChannelClosed(f"peer sent malformed data: {error}") from error
        if not isinstance(message, dict):
            raise ChannelClosed("peer sent a non-object message")
        return message
