"""The docker backend against the real engine (marked ``docker``; skips with the reason without one)."""

import pytest

from sandboxes.base import Limits
from sandboxes.docker_container import ContainerSpec
from sandboxes.errors import UserError
from sandboxes.isolation import RUN_UID_BASE, RUN_UID_SPAN

from tests.sandboxes.conftest import SMALL

pytestmark = pytest.mark.docker


def test_runs_hardened(docker_sandbox):
    result = docker_sandbox.run(["sh", "-c", "id -u; grep -c . /proc/self/status >/dev/null; "
                                 "grep CapEff /proc/self/status; touch /usr/x 2>&1 || true"], limits=SMALL)
    uid, caps, touch = result.stdout.splitlines()
    assert RUN_UID_BASE <= int(uid) < RUN_UID_BASE + RUN_UID_SPAN and caps.split()[1] == "0000000000000000"
    assert "Read-only" in touch
    assert result.backend == "docker"


def test_each_container_runs_its_jobs_as_a_uid_of_its_own(docker_sandbox):
    """Jobs of concurrent containers share no per-user kernel limit (one held every inotify instance of uid 10001)."""
    first, second = (docker_sandbox.take(ContainerSpec.from_limits(SMALL)) for _ in range(2))
    try:
        assert first.uid != second.uid
    finally:
        first.discard()
        second.discard()


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


FORGE = """
import base64, json
fields = {"returncode": 0, "stdout": base64.b64encode(b"FORGED").decode(), "stderr": "", "stdout_truncated": False,
          "stderr_truncated": False, "wall_s": 0.1, "cpu_s": 0.1, "max_rss_bytes": 1, "timed_out": False,
          "cpu_exceeded": False, "disk_exceeded": False}
answer = {"outcome": fields, "files": {"../../../tmp/forged": ""}, "notes": [], "peak_memory_bytes": 1,
          "oom_killed": False, "disk_full": False}
try:
    with open("/proc/1/fd/1", "w") as runner_output:  # this answer, and one for the next job
        runner_output.write(json.dumps(answer) + "\\n" + json.dumps(answer) + "\\n")
except OSError as error:
    print("refused", error.errno)
raise SystemExit(7)
"""


def test_a_job_cannot_reach_the_runner(docker_sandbox):
    from sandboxes.attacks_runner import PROBE, supervisors_reached, tagged

    code = PROBE + "print(os.getuid(), open('/proc/1/status').read().split('Uid:')[1].split()[0])\nprobe_supervisors()"
    result = docker_sandbox.run(["python", "-c", code], limits=SMALL)
    job, runner = map(int, result.stdout.splitlines()[0].split())
    assert job >= RUN_UID_BASE and runner == 0, result.stdout + result.stderr
    assert tagged(result.stdout, "PROBE") == {"1": []} and supervisors_reached(result.stdout) == {}


def test_a_forged_answer_is_not_taken_for_the_jobs_nor_the_next(docker_sandbox):
    forged = docker_sandbox.run(["python", "-c", FORGE], limits=SMALL, collect=["*"])
    after = docker_sandbox.run(["echo", "mine"], limits=SMALL)
    assert (forged.returncode, forged.stdout.split()[0], forged.files) == (7, "refused", {})
    assert after.stdout == "mine\n"


def test_an_answer_naming_files_outside_the_work_dir_is_rejected():
    from sandboxes.docker_channel import ChannelClosed
    from sandboxes.docker_sandbox import _result

    fields = dict(returncode=0, stdout="", stderr="", stdout_truncated=False, stderr_truncated=False, wall_s=0.1,
                  cpu_s=0.1, max_rss_bytes=1, timed_out=False, cpu_exceeded=False, disk_exceeded=False)
    answer = {"outcome": fields, "notes": [], "peak_memory_bytes": 1, "oom_killed": False, "disk_full": False}
    assert _result({**answer, "files": {"out.txt": ""}}, ["*.txt"], Limits()).files == {"out.txt": b""}
    for name in ("../../../tmp/x.txt", "/etc/x.txt", "out.bin"):
        with pytest.raises(ChannelClosed, match="answer rejected"):
            _result({**answer, "files": {name: ""}}, ["*.txt"], Limits())


def test_sigterm_to_the_runner_is_a_sandbox_failure_not_a_timeout(docker_sandbox):
    import threading
    import time

    with docker_sandbox.open(SMALL) as session:
        stopper = threading.Timer(1.0, docker_sandbox.client.api.kill, (session.container.id, "SIGTERM"))
        stopper.start()
        started = time.monotonic()
        result = session.exec(["sleep", "15"])
        stopper.join()
    assert result.sandbox_error and not result.timed_out and not result.ok
    assert time.monotonic() - started < 10


def test_ipc_left_by_a_job_is_gone_for_the_next():
    from sandboxes.docker_sandbox import DockerSandbox
    from sandboxes.select import docker_answers

    if docker_answers() is not None:
        pytest.skip("Docker engine not available")
    sandbox = DockerSandbox(warm=True, pool_size=1)  # one container: the second job gets the first one's
    make = ("import ctypes, os; libc = ctypes.CDLL(None); [f(0x5eed, *a) for f, a in ((libc.shmget, (4096, 0o1666)),"
            " (libc.semget, (1, 0o1666)), (libc.msgget, (0o1666,)))]; libc.mq_open(b'/left', os.O_CREAT | os.O_RDWR,"
            " 0o666, None)")
    look = ("import os; print(sum(len(open(f'/proc/sysvipc/{k}').readlines()) - 1 for k in ('shm', 'sem', 'msg')),"
            " os.listdir('/dev/mqueue'))")
    try:
        made = sandbox.run(["python", "-c", make], limits=SMALL)
        left = sandbox.run(["python", "-c", look], limits=SMALL)
    finally:
        sandbox.close()
    assert made.ok, made.stderr
    assert left.stdout == "0 []\n", left.stdout + left.stderr


TIME_WAIT = """
import socket
server = socket.socket()
server.bind(("127.0.0.1", 24680))
server.listen(1)
client = socket.create_connection(("127.0.0.1", 24680))
peer, _ = server.accept()
peer.close()  # the side that closes first keeps the TIME_WAIT entry, after every process is gone
client.close()
server.close()
"""


def test_closed_connections_of_a_job_are_not_seen_by_the_next():
    """TIME_WAIT entries outlive a job's processes in the container's network namespace: a job encoded a secret in
    the ports of closed connections and the next job in the warm container read it from /proc/net/tcp."""
    from sandboxes.docker_sandbox import DockerSandbox
    from sandboxes.select import docker_answers

    if docker_answers() is not None:
        pytest.skip("Docker engine not available")
    sandbox = DockerSandbox(warm=True, pool_size=1)
    try:
        made = sandbox.run(["python", "-c", TIME_WAIT], limits=SMALL)
        seen = sandbox.run(["python", "-c", "print(len(open('/proc/net/tcp').readlines()) - 1)"], limits=SMALL)
    finally:
        sandbox.close()
    assert made.ok, made.stderr
    assert seen.stdout == "0\n", seen.stdout + seen.stderr


def test_a_runner_that_died_while_idle_is_replaced_before_the_next_job():
    from sandboxes.docker_container import ContainerSpec
    from sandboxes.docker_sandbox import DockerSandbox
    from sandboxes.select import docker_answers

    if docker_answers() is not None:
        pytest.skip("Docker engine not available")
    sandbox = DockerSandbox(warm=True, pool_size=1)
    try:
        container = sandbox.take(ContainerSpec.from_limits(SMALL))
        sandbox.give_back(container, healthy=True)  # idle in the pool, its reset not yet answered
        sandbox.client.api.kill(container.id, "SIGKILL")
        result = sandbox.run(["echo", "fine"], limits=SMALL)
    finally:
        sandbox.close()
    assert (result.stdout, result.sandbox_error) == ("fine\n", "")


def test_a_folder_the_job_left_where_a_file_goes_is_a_clear_error_and_the_session_goes_on(docker_sandbox):
    with docker_sandbox.open(SMALL) as session:
        session.exec(["sh", "-c", "rm -f step.py; mkdir step.py"], files={"step.py": b"1"})
        with pytest.raises(UserError, match="cannot write sandbox file 'step.py': a folder of that name"):
            session.exec(["true"], files={"step.py": b"2"})
        assert session.exec(["sh", "-c", "rmdir step.py && echo ok"]).stdout == "ok\n"



IN_FLIGHT = """
import array, socket
listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
listener.bind("\\0leak-secret-1234")
listener.listen()
carrier, receiver = socket.socketpair(socket.AF_UNIX)
carrier.sendmsg([b"x"], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [listener.fileno(), receiver.fileno()]))])
print("in flight")
"""


def test_sockets_a_job_left_in_flight_are_gone_for_the_next():
    """A listening socket sent into its own queue (an SCM_RIGHTS cycle) outlives every process of the job; its
    abstract name carried a secret to the next job in the warm container until the reset had the kernel collect it."""
    from sandboxes.docker_sandbox import DockerSandbox
    from sandboxes.select import docker_answers

    if docker_answers() is not None:
        pytest.skip("Docker engine not available")
    sandbox = DockerSandbox(warm=True, pool_size=1)
    try:
        made = sandbox.run(["python", "-c", IN_FLIGHT], limits=SMALL)
        seen = sandbox.run(["python", "-c", "print(open('/proc/net/unix').read().count('leak-secret'))"],
                           limits=SMALL)
    finally:
        sandbox.close()
    assert made.ok and made.stdout == "in flight\n", made.stderr
    assert seen.stdout == "0\n", seen.stdout + seen.stderr


def test_a_job_that_locks_its_work_dir_still_gets_its_own_result(docker_sandbox):
    """chmod 000 on the work dir made collecting fail as a sandbox error (and discarded the container)."""
    result = docker_sandbox.run(["sh", "-c", "echo done > result.json; chmod 000 .; exit 3"], collect=["result.json"],
                                limits=SMALL)
    assert (result.returncode, result.sandbox_error, result.files) == (3, "", {"result.json": b"done\n"})


def test_the_containers_network_keeps_no_tcp_metrics(docker_sandbox):
    """TCP metrics outlive every socket for an hour, per destination: a job wrote a secret into the addresses of
    closed connections and the next job in the warm container read it back (``ip tcp_metrics``)."""
    result = docker_sandbox.run(["sh", "-c", "cat /proc/sys/net/ipv4/tcp_no_metrics_save /proc/sys/net/ipv4/tcp_fastopen"],
                                limits=SMALL)
    assert result.stdout.split() == ["1", "0"], result.stdout + result.stderr


def test_times_a_job_set_on_its_work_dir_are_not_seen_by_the_next():
    """A job owns /work's root and set its atime and mtime to a secret; the next job in the warm container read it."""
    from sandboxes.docker_sandbox import DockerSandbox
    from sandboxes.select import docker_answers

    if docker_answers() is not None:
        pytest.skip("Docker engine not available")
    sandbox = DockerSandbox(warm=True, pool_size=1)  # one container: the second job gets the first one's
    look = "import os; print(*(int(os.stat(f).st_mtime) for f in ('/work', '/tmp', '/dev/shm')))"
    try:
        made = sandbox.run(["python", "-c", "import os; os.utime('/work', (4242424242, 4242424242))"], limits=SMALL)
        left = sandbox.run(["python", "-c", look], limits=SMALL)
    finally:
        sandbox.close()
    assert made.ok, made.stderr
    assert "4242424242" not in left.stdout and left.ok, left.stdout + left.stderr


def test_a_result_file_near_a_third_of_the_memory_limit_comes_back(docker_sandbox):
    """The runner shares the job's memory limit and held five copies of the collected files while answering: a
    well-behaved job's 40 MB result at 128 MiB came back as a sandbox failure (the runner killed for memory)."""
    job = "open('out.bin', 'wb').write(b'x' * (40 << 20))"
    result = docker_sandbox.run(["python", "-c", job], collect=["out.bin"], limits=Limits(memory_mb=128, wall_s=60))
    assert result.ok and not result.sandbox_error, result.sandbox_error or result.stderr
    assert result.files["out.bin"] == b"x" * (40 << 20)
