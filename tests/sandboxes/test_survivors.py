"""Survivors are found by process tree (local) and by container (docker), whatever they call themselves."""

import os
import signal
import subprocess
import time

import pytest

from sandboxes.docker_container import ContainerSpec
from sandboxes.proctree import process_table
from sandboxes.survivors import Watch

from tests.sandboxes.conftest import SMALL


def _command(pid: int) -> bytes:
    with open(f"/proc/{pid}/cmdline", "rb") as handle:
        return handle.read()


def test_an_orphan_that_left_its_session_is_found_and_reaped():
    with Watch(None) as watch:
        subprocess.run(["sh", "-c", "setsid sleep 300 </dev/null >/dev/null 2>&1 &"], check=True)
        left = watch.left(settle_s=0.5)  # its parent is gone: it was re-parented here, not to init
        commands = [_command(pid) for pid in left]
        for pid in left:
            os.kill(pid, signal.SIGKILL)
        assert watch.left() == []
    assert commands == [b"sleep\x00300\x00"]
    assert not any(os.path.exists(f"/proc/{pid}") for pid in left)  # the zombie was reaped on leaving


def test_what_an_older_helper_starts_during_a_case_is_not_counted_but_a_new_process_below_one_is():
    helper = subprocess.Popen(["sh", "-c", "read _; sleep 300; true"], stdin=subprocess.PIPE, start_new_session=True)
    try:
        with Watch(None) as watch:
            helper.stdin.write(b"go\n")
            helper.stdin.flush()
            _wait_for_child(helper.pid)
            assert watch.left(settle_s=0) == []
            fresh = subprocess.Popen(["sh", "-c", "sleep 300; true"], start_new_session=True)
            _wait_for_child(fresh.pid)
            left = watch.left(settle_s=0)
            _kill_group(fresh)
    finally:
        _kill_group(helper)
    assert len(left) == 2 and fresh.pid in left  # the new shell and its sleep


def _kill_group(process: subprocess.Popen) -> None:
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()


def _wait_for_child(pid: int, timeout_s: float = 10.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not any(parent == pid for parent, _ in process_table().values()) and time.monotonic() < deadline:
        time.sleep(0.02)


@pytest.mark.docker
def test_a_process_in_a_container_other_than_its_runner_is_found(docker_sandbox):
    container = docker_sandbox.take(ContainerSpec.from_limits(SMALL))
    try:
        with Watch(docker_sandbox) as watch:
            assert watch.left(settle_s=0) == []
            started = docker_sandbox.client.api.exec_create(container.id, ["sleep", "300"], user=str(container.uid))
            docker_sandbox.client.api.exec_start(started["Id"], detach=True)
            _wait_running(docker_sandbox.client.api, started["Id"])  # not caught while still "runc init"
            left = watch.left(settle_s=0.5)
            commands = [_command(pid) for pid in left]  # before the discard: a dying process's cmdline reads b""
    finally:
        container.discard()
    assert commands == [b"sleep\x00300\x00"]


def _wait_running(api, exec_id: str, timeout_s: float = 30.0) -> None:
    """Until the engine reports the exec'd process as running (it has left runc's set-up and exec'd)."""
    deadline = time.monotonic() + timeout_s
    while not api.exec_inspect(exec_id).get("Running") and time.monotonic() < deadline:
        time.sleep(0.05)
