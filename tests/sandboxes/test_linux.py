"""Process-level limits every job gets (:func:`sandboxes.linux.limit_job`), on both backends; reading a process's
memory."""

import ctypes
import os

import pytest

from sandboxes.linux import allow_any_tracer, may_read_child_memory, read_process_memory
from tests.sandboxes.conftest import SMALL

LIMITS = "import resource as r; print(*(r.getrlimit(getattr(r, f'RLIMIT_{n}')) for n in ('CORE', 'RTPRIO', 'NICE')))"


def test_a_job_gets_no_core_dumps_real_time_scheduling_or_raised_priority(any_sandbox):
    result = any_sandbox.run(["python", "-c", LIMITS], limits=SMALL)
    assert result.stdout.split() == ["(0,", "0)"] * 3, result.stdout + result.stderr


def test_a_process_memory_is_read_as_it_is_and_an_unmapped_address_is_an_error():
    data = bytearray(b"kernel output" * 4)
    address = ctypes.addressof((ctypes.c_char * len(data)).from_buffer(data))
    assert read_process_memory(os.getpid(), address, len(data)) == data
    with pytest.raises(OSError):
        read_process_memory(os.getpid(), 4096, 16)


def test_any_tracer_may_be_allowed_with_or_without_yama():
    pid = os.fork()
    if pid == 0:
        try:
            allow_any_tracer()
            os._exit(0)
        except OSError:
            os._exit(1)
    assert os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0


def test_a_child_that_allows_it_can_be_read_where_ptrace_is_not_locked_down():
    """The verifier reads its solution worker's output only where this probe of its own says it may: a worker that
    made itself unreadable cannot get the untimed copy back."""
    scope = "/proc/sys/kernel/yama/ptrace_scope"
    if os.path.exists(scope) and int(open(scope).read()) >= 2:
        pytest.skip("Yama's ptrace_scope forbids reading other processes here")
    assert may_read_child_memory() is True
