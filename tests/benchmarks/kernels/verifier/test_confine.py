"""The solution worker's seccomp filter: in a forked child, what it may and may not do to other processes."""

import ctypes
import fcntl
import json
import os
import signal
import threading

import pytest

from benchmarks.kernels.verifier.runner.confine import ARCHES, assemble, confine, program

PROBES = {
    "kill the parent": lambda parent: os.kill(parent, signal.SIGSTOP),
    "kill the process group": lambda parent: os.kill(0, signal.SIGCONT),
    "kill every process": lambda parent: os.kill(-1, signal.SIGCONT),
    "kill the parent from a thread": lambda parent: _in_thread(lambda: os.kill(parent, signal.SIGSTOP)),
    "kill the parent from a child": lambda parent: _in_child(lambda: os.kill(parent, signal.SIGSTOP)),
    "signal through a pidfd": lambda parent: signal.pidfd_send_signal(os.pidfd_open(parent), signal.SIGSTOP),
    "SIGIO owner set to the parent": lambda parent: fcntl.fcntl(os.pipe()[0], fcntl.F_SETOWN, parent),
    "renice the parent": lambda parent: os.setpriority(os.PRIO_PROCESS, parent, 19),
    "renice every process of the user": lambda parent: os.setpriority(os.PRIO_USER, 0, 19),
    "idle scheduling for the parent": lambda parent: os.sched_setscheduler(parent, os.SCHED_IDLE, os.sched_param(0)),
    "ptrace the parent": lambda parent: _libc_call("ptrace", 16, parent, 0, 0),  # PTRACE_ATTACH
    "read the parent's memory": lambda parent: _libc_call("process_vm_readv", parent, 0, 0, 0, 0, 0),
}
ALLOWED = {
    "signal itself": lambda parent: os.kill(os.getpid(), 0),
    "signal its own thread": lambda parent: signal.pthread_kill(threading.get_ident(), 0),
    "renice itself": lambda parent: os.setpriority(os.PRIO_PROCESS, 0, 1),
    "ordinary fcntl": lambda parent: fcntl.fcntl(0, fcntl.F_GETFD),
}


def _libc_call(name, *args):
    libc = ctypes.CDLL(None, use_errno=True)
    if getattr(libc, name)(*args) != 0:
        raise OSError(ctypes.get_errno(), name)


def _in_thread(body):
    errors = []
    thread = threading.Thread(target=lambda: _capture(body, errors))
    thread.start()
    thread.join()
    if errors:
        raise errors[0]


def _capture(body, errors):
    try:
        body()
    except OSError as error:
        errors.append(error)


def _in_child(body):
    pid = os.fork()
    if pid == 0:
        try:
            body()
            os._exit(0)
        except OSError as error:
            os._exit(error.errno)
    code = os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])
    if code:
        raise OSError(code, "in the child")


def confined_outcomes(probes):
    """Run each probe in a confined child of this process; name -> errno (0: allowed)."""
    parent = os.getpid()
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        outcomes = {"confine": confine()}
        for name, probe in probes.items():
            try:
                probe(parent)
                outcomes[name] = 0
            except OSError as error:
                outcomes[name] = error.errno
        os.write(write_end, json.dumps(outcomes).encode())
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end) as pipe:
        outcomes = json.loads(pipe.read())
    os.waitpid(pid, 0)
    return outcomes


def test_signals_tracing_and_scheduling_of_other_processes_are_refused():
    outcomes = confined_outcomes(PROBES)
    assert "refused" in outcomes.pop("confine")["seccomp"]
    assert outcomes == {name: 1 for name in PROBES}  # EPERM every time; this process was never stopped


def test_what_a_kernel_does_to_itself_still_works():
    outcomes = confined_outcomes(ALLOWED)
    outcomes.pop("confine")
    assert outcomes == {name: 0 for name in ALLOWED}


@pytest.mark.parametrize("arch", sorted(ARCHES))
def test_the_filter_assembles_for_each_known_architecture(arch):
    code = assemble(program(ARCHES[arch], 4242))
    assert 40 < len(code) < 120 and code[-1] == (0x06, 0, 0, 0x00050001)  # ends with RET ERRNO(EPERM)
    assert all(0 <= jt < 256 and 0 <= jf < 256 for _op, jt, jf, _k in code)
