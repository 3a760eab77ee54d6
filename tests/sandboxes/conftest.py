"""Sandbox fixtures: shared backends, and a skip with the reason when the Docker engine does not answer."""

from __future__ import annotations

import pytest

from sandboxes.base import Limits
from sandboxes.select import get_sandbox
from tests.system_tools import require_tool

SMALL = Limits(wall_s=20, cpu_s=20, memory_mb=512, pids=32, disk_mb=32)


@pytest.fixture(scope="session")
def local_sandbox():
    return get_sandbox("local")


@pytest.fixture(scope="session")
def docker_sandbox():
    require_tool("docker")
    return get_sandbox("docker")


def require_guarantee(sandbox, name: str) -> None:
    """Skip, naming the reason, when ``sandbox`` does not promise guarantee ``name`` on this host (what `agent
    doctor` reports for the local backend); the docker backend promises them all through its containers."""
    kept = getattr(sandbox, "guarantees", None)
    if kept is not None and not kept[name]:
        from sandboxes.guarantees import lacking

        pytest.skip(f"this host's {sandbox.name} sandbox lacks '{name}': {lacking(sandbox.caps)[name]}")


@pytest.fixture(params=["local", pytest.param("docker", marks=pytest.mark.docker)])
def any_sandbox(request):
    """Both backends (the docker one is marked ``docker`` and skips without an engine)."""
    return request.getfixturevalue(f"{request.param}_sandbox")


TCP_FILL = """
import socket
server = socket.socket()
server.bind(("127.0.0.1", 0))
server.listen(64)
total, keep = 0, []
for _ in range(40):
    client = socket.socket()
    client.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4 << 20)
    client.connect(server.getsockname())
    peer, _ = server.accept()
    peer.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 << 20)
    client.setblocking(False)
    try:
        while True:
            total += client.send(b"x" * 65536)
    except BlockingIOError:
        pass
    keep += [client, peer]
print(total >> 20)
"""
"""Fills the buffers of 40 loopback TCP connections (4 MiB each way asked) and prints how many MiB it sent."""
