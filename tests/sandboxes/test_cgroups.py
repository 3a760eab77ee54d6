import subprocess
import time

import pytest

from sandboxes.cgroups import Cgroup, oom_kill_count, oom_kills_in, tcp_buffer_limit

from tests.sandboxes.conftest import TCP_FILL


@pytest.fixture
def cgroup():
    try:
        group = Cgroup.create(memory_mb=64, pids=8)
    except OSError as error:
        pytest.skip(f"cannot create cgroups here: {error}")
    yield group
    group.kill_all()
    group.remove()


def test_kill_all_reaches_processes_that_left_the_session(cgroup):
    code = "import os, time\nif os.fork() == 0:\n    os.setsid()\n    time.sleep(60)\ntime.sleep(60)"
    proc = subprocess.Popen(["python", "-c", code], preexec_fn=lambda: cgroup.attach(0))
    deadline = time.monotonic() + 10
    while len(cgroup.pids()) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(cgroup.pids()) == 2
    assert cgroup.kill_all()
    proc.wait(5)
    assert cgroup.pids() == []


def test_memory_limit_kills_and_is_counted(cgroup):
    proc = subprocess.run(["python", "-c", "b = bytearray(200 * 2**20)"], preexec_fn=lambda: cgroup.attach(0))
    assert proc.returncode == -9
    assert cgroup.oom_kills() >= 1
    assert cgroup.peak_memory_bytes() <= 64 * 2**20 + 2**20
    assert cgroup.cpu_seconds() > 0


def test_cpu_quota_caps_a_multi_threaded_loop():
    try:
        group = Cgroup.create(memory_mb=256, pids=16, cpus=0.25)
    except OSError as error:
        pytest.skip(f"cannot create cgroups here: {error}")
    code = ("import threading, time\n"
            "def spin():\n    end = time.time() + 1.5\n    while time.time() < end: pass\n"
            "threads = [threading.Thread(target=spin) for _ in range(2)]\n"
            "[t.start() for t in threads]; [t.join() for t in threads]")
    try:
        subprocess.run(["python", "-c", code], preexec_fn=lambda: group.attach(0), timeout=60)
        assert group.cpu_seconds() < 1.0  # 2 threads x 1.5 s would be 3 s without the quota
    finally:
        group.kill_all()
        group.remove()


def test_oom_kill_counter_is_read_from_v1_and_v2_files(tmp_path):
    assert oom_kill_count("oom_kill_disable 0\nunder_oom 0\noom_kill 3\n") == 3  # v1 memory.oom_control
    assert oom_kill_count("low 0\nhigh 0\nmax 5\noom 2\noom_kill 2\n") == 2  # v2 memory.events
    (tmp_path / "memory.oom_control").write_text("under_oom 0\noom_kill 7\n")
    assert oom_kills_in(str(tmp_path / "memory.oom_control")) == 7
    assert oom_kills_in(str(tmp_path / "missing")) == 0


def test_loopback_tcp_buffers_count_against_the_memory_limit(cgroup):
    """On cgroup v1 a job's unread loopback TCP buffers were charged to no cgroup: 3 GiB of host memory for a job
    limited to 128 MiB."""
    if not (cgroup.dirs["memory"] / "memory.kmem.tcp.limit_in_bytes").exists():
        pytest.skip("no cgroup v1 TCP buffer accounting here (cgroup v2 charges socket memory to the job itself)")
    proc = subprocess.run(["python", "-c", TCP_FILL], preexec_fn=lambda: cgroup.attach(0), capture_output=True,
                          text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert int(proc.stdout) < 32, proc.stdout  # 16 MiB of buffers, not 40 sockets' worth (hundreds of MiB)


def test_tcp_buffers_get_a_share_of_the_memory_limit():
    assert tcp_buffer_limit(1024 << 20) == 128 << 20
    assert tcp_buffer_limit(64 << 20) == 16 << 20  # at least 16 MiB
    assert tcp_buffer_limit(8 << 20) == 8 << 20  # never above the memory limit
