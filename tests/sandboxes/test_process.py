"""Sandbox.spawn on both backends: pipes, per-request deadlines, limits and clean-up (docker marked ``docker``)."""

import os
import sys
import time

import pytest

from sandboxes.base import Limits
from sandboxes.process import ProcessExited
from tests.sandboxes.conftest import require_guarantee

ECHO = ("import os, sys\n"
        "print(open('in.txt').read(), os.environ.get('GREETING'), flush=True)\n"
        "for line in sys.stdin:\n"
        "    print(line.strip()[::-1], flush=True)\n"
        "    print('seen', line.strip(), file=sys.stderr, flush=True)\n")
SMALL = Limits(memory_mb=256, pids=32, disk_mb=32)


def test_requests_over_pipes_with_a_deadline(any_sandbox):
    with any_sandbox.spawn([sys.executable, "-c", ECHO], files={"in.txt": b"file"}, env={"GREETING": "hi"},
                           limits=SMALL) as process:
        assert process.read_line(60) == b"file hi"
        for word in ("one", "two"):
            process.write(word.encode() + b"\n")
            assert process.read_line(10) == word[::-1].encode()
        with pytest.raises(TimeoutError):
            process.read_line(0.3)
        assert process.returncode is None
        deadline = time.monotonic() + 5
        while "seen two" not in process.stderr_tail() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert "seen one" in process.stderr_tail() and "seen two" in process.stderr_tail()


def test_end_of_output_and_exit_code(any_sandbox):
    with any_sandbox.spawn([sys.executable, "-c", "import sys; print('bye'); sys.exit(3)"], limits=SMALL) as process:
        assert process.read_line(60) == b"bye"
        with pytest.raises(ProcessExited):
            process.read_line(10)
        assert process.wait(10) == 3
        with pytest.raises(ProcessExited):
            process.write(b"anyone?\n" * 20000)


def test_a_write_to_a_process_that_never_reads_times_out(any_sandbox):
    with any_sandbox.spawn(["sleep", "1000"], limits=SMALL) as process:
        with pytest.raises(TimeoutError, match="took no input"):
            process.write(b"x" * (4 << 20), timeout_s=0.5)


DAEMON = ("import os, sys, time\n"
          "if os.fork() == 0:\n"
          "    os.setsid()\n"
          "    time.sleep(300)\n"
          "print(os.getpid(), flush=True)\n"
          "sys.stdin.read()\n")


def test_kill_takes_daemons_along_and_close_cleans_up(local_sandbox):
    others = set(os.listdir(local_sandbox.base_dir))  # other tests' long-lived runners may share the folder
    process = local_sandbox.spawn([sys.executable, "-c", DAEMON], limits=SMALL)
    process.read_line(60)
    own = set(os.listdir(local_sandbox.base_dir)) - others
    assert own
    process.kill()
    assert process.returncode == 137
    process.close()
    assert not set(os.listdir(local_sandbox.base_dir)) & own
    assert not [p for p in _host_processes() if "time.sleep(300)" in p]


def _host_processes() -> list[str]:
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as handle:
                found.append(handle.read().replace(b"\0", b" ").decode(errors="replace"))
        except OSError:
            pass
    return found


def test_memory_limit_kills_are_counted(any_sandbox):
    require_guarantee(any_sandbox, "oom_kills_counted")
    hog = "import sys; print('start', flush=True); sys.stdin.readline(); x = bytearray(600 << 20); print(len(x))"
    with any_sandbox.spawn([sys.executable, "-c", hog], limits=SMALL) as process:
        assert process.read_line(60) == b"start"
        before = process.oom_kills()
        process.write(b"go\n")
        with pytest.raises(ProcessExited):
            process.read_line(60)
        code = process.wait(30)
        assert process.oom_kills() > before
        require_guarantee(any_sandbox, "kill_exit_status")
        assert code == 137


def test_a_process_outlives_the_thread_that_spawned_it(any_sandbox):
    import threading

    started = {}
    thread = threading.Thread(target=lambda: started.setdefault(
        "process", any_sandbox.spawn([sys.executable, "-c", ECHO], files={"in.txt": b"x"}, limits=SMALL)))
    thread.start()
    thread.join()
    with started["process"] as process:
        assert process.read_line(60) == b"x None"
        time.sleep(0.5)
        process.write(b"still here\n")
        assert process.read_line(10) == b"ereh llits"


def test_a_stderr_flood_keeps_its_tail_and_the_process_finishes(any_sandbox):
    """Past a few MiB the drain reads one pipe-full every 10 ms (the flood waits on a full pipe); the tail is kept."""
    flood = "import sys; [sys.stderr.write('e' * 65536) for _ in range(160)]; sys.stderr.write('END'); print('done')"
    with any_sandbox.spawn([sys.executable, "-c", flood], limits=SMALL) as process:
        assert process.read_line(60) == b"done"
        assert process.wait(60) == 0
        deadline = time.monotonic() + 10
        while not process.stderr_tail(3) == "END" and time.monotonic() < deadline:
            time.sleep(0.05)
        assert process.stderr_tail(3) == "END"


def test_lines_come_whole_however_they_are_written(local_sandbox):
    """read_line searches only the bytes it has not searched yet (it rescanned and copied its whole buffer on every
    read: quadratic in a line's length); lines split over many writes or packed into one still come whole."""
    code = ("import os\nfor _ in range(3000):\n    os.write(1, b'x')\nos.write(1, b'\\na\\nb\\n' + b'y' * 70000)\n"
            "os.write(1, b'\\n')\n")
    with local_sandbox.spawn(["python", "-c", code], limits=Limits(output_bytes=65536)) as process:
        assert process.read_line(60) == b"x" * 3000
        assert [process.read_line(60), process.read_line(60)] == [b"a", b"b"]
        with pytest.raises(ProcessExited, match="longer than 65536"):
            process.read_line(60)
