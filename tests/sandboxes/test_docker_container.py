"""Containers never outlive their owner: the stdin lifeline and the label-based reaper."""

import subprocess
import sys
import time

import pytest

from sandboxes import docker_container
from sandboxes.docker_container import ContainerSpec, RunnerContainer, owner_alive, owner_id, reap_orphans
from sandboxes.base import Limits
from sandboxes.errors import UserError

from tests.sandboxes.conftest import TCP_FILL

pytestmark = pytest.mark.docker

OWNER_SCRIPT = """
from sandboxes.docker_sandbox import DockerSandbox
sandbox = DockerSandbox()
sandbox.prewarm(count=1)
print(sandbox.pool._idle[next(iter(sandbox.pool._idle))][0].id, flush=True)
import time
time.sleep(300)
"""


def _exists(engine, container_id: str) -> bool:
    return bool(engine.containers.list(all=True, filters={"id": container_id}))


def test_container_goes_away_when_its_owner_is_killed(docker_sandbox):
    owner = subprocess.Popen([sys.executable, "-c", OWNER_SCRIPT], stdout=subprocess.PIPE, text=True)
    container_id = owner.stdout.readline().strip()
    assert _exists(docker_sandbox.client, container_id)
    owner.kill()
    owner.wait()
    deadline = time.monotonic() + 30
    while _exists(docker_sandbox.client, container_id) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not _exists(docker_sandbox.client, container_id)


def test_reaper_removes_containers_of_dead_owners(docker_sandbox, monkeypatch):
    host = owner_id().split(":")[0]
    monkeypatch.setattr(docker_container, "owner_id", lambda: f"{host}:999999999:0")
    orphan = RunnerContainer(docker_sandbox.client, docker_sandbox.image, ContainerSpec.from_limits(Limits()))
    assert reap_orphans(docker_sandbox.client) >= 1
    assert not _exists(docker_sandbox.client, orphan.id)


def test_owner_identity_includes_start_time():
    me = owner_id()
    assert owner_alive(me)
    host, pid, _ = me.split(":")
    assert not owner_alive(f"{host}:{pid}:1")


def test_docker_socket_is_never_mounted():
    with pytest.raises(UserError, match="Docker socket"):
        ContainerSpec.from_limits(Limits(extra_ro_paths=["/var/run"]))


def test_loopback_tcp_buffers_are_capped_at_a_share_of_the_containers_memory(docker_sandbox):
    """On cgroup v1 the engine charged a job's unread loopback TCP buffers to no cgroup (1.6 GiB of host memory for a
    job limited to 128 MiB), and a limit equal to the memory limit gave a job its memory twice over."""
    result = docker_sandbox.run(["python", "-c", TCP_FILL], limits=Limits(memory_mb=1024, wall_s=60))
    assert result.returncode == 0, result.stderr
    assert int(result.stdout) < 160, result.stdout  # an eighth of 1,072 MiB (134), not 40 sockets' worth


def test_the_engine_keeps_no_log_of_a_jobs_output(docker_sandbox):
    """The json-file log kept every job's output and collected files on the host's disk for the container's life."""
    result = docker_sandbox.run(["sh", "-c", "head -c 300000 /dev/zero | tr '\\0' x; echo; echo secret > out"],
                                collect=["out"], limits=Limits())
    assert result.files == {"out": b"secret\n"} and len(result.stdout) > 300000
    for container in docker_sandbox.client.containers.list(filters={"label": docker_container.LABEL}):
        assert container.attrs["HostConfig"]["LogConfig"]["Type"] == "none"
        assert not container.attrs["LogPath"]
