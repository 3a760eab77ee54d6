"""The docker backend against the real engine (marked ``docker``; skips with the reason without one)."""

import pytest

from sandboxes.base import Limits

from tests.sandboxes.conftest import SMALL

pytestmark = pytest.mark.docker


def test_runs_hardened(docker_sandbox):
    result = docker_sandbox.run(["sh", "-c", "id -u; grep -c . /proc/self/status >/dev/null; "
                                 "grep CapEff /proc/self/status; touch /usr/x 2>&1 || true"], limits=SMALL)
    uid, caps, touch = result.stdout.splitlines()
    assert uid == "10001" and caps.split()[1] == "0000000000000000"
    assert "Read-only" in touch
    assert result.backend == "docker"


def test_files_and_collect(docker_sandbox):
    result = docker_sandbox.run(["sh", "-c", "cp in.txt out.txt; ln -s /etc/passwd link.txt"],
                                files={"in.txt": b"data"}, collect=["*.txt"], limits=SMALL)
    assert result.files == {"in.txt": b"data", "out.txt": b"data"}
    assert any("link.txt" in note for note in result.notes)


def test_warm_container_is_clean_for_the_next_job(docker_sandbox):
    docker_sandbox.run(["sh", "-c", "echo x > /work/left; echo y > /tmp/left; sleep 300 & echo started"],
                       limits=SMALL)
    result = docker_sandbox.run(["sh", "-c", "ls -A /work /tmp; ps -e -o comm= 2>/dev/null | grep -c sleep || true"],
                                limits=SMALL)
    assert "left" not in result.stdout


def test_session_persists_until_closed(docker_sandbox):
    with docker_sandbox.open(SMALL) as session:
        session.exec(["sh", "-c", "echo 5 > n"])
        assert session.exec(["cat", "n"]).stdout == "5\n"


def test_limits_other_than_default_get_their_own_container(docker_sandbox):
    result = docker_sandbox.run(["sh", "-c", "cat /sys/fs/cgroup/pids/pids.max"], limits=Limits(pids=20))
    assert result.stdout.strip() == "22"


def test_gxx_and_python_toolchains(docker_sandbox):
    cpp = b'#include <cstdio>\nint main() { std::printf("%d\\n", 7 * 6); }\n'
    result = docker_sandbox.run(["sh", "-c", "g++ -o m m.cc && ./m && python -c 'import numpy; print(numpy.ones(2).sum())'"],
                                files={"m.cc": cpp}, limits=SMALL)
    assert result.stdout.split() == ["42", "2.0"], result.stderr


def test_concurrent_runs_from_threads(docker_sandbox):
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(max_workers=3) as pool:
        results = list(pool.map(lambda i: docker_sandbox.run(["sh", "-c", f"echo {i} > f; cat f"], limits=SMALL),
                                range(6)))
    assert [r.stdout.strip() for r in results] == [str(i) for i in range(6)]
