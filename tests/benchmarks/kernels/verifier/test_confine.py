"""The solution worker's seccomp filter: in a forked child, what it may and may not do to other processes;
end to end, solutions that stop, kill or starve the runner and the reference worker are refused, on every
target (and the hacks that went after the runner's secrets fail)."""

import ctypes
import errno
import fcntl
import json
import os
import platform
import signal
import threading

import pytest

from benchmarks.kernels.verifier.harness import evaluate
from benchmarks.kernels.verifier.runner.confine import ARCHES, assemble, confine, program
from tests.benchmarks.kernels.verifier.verdicts import adversarial, matches, runtime_expectation

PROBES = {
    "kill the parent": lambda parent: os.kill(parent, signal.SIGSTOP),
    "kill the process group": lambda parent: os.kill(0, signal.SIGCONT),
    "kill every process": lambda parent: os.kill(-1, signal.SIGCONT),
    "kill the parent from a thread": lambda parent: _in_thread(lambda: os.kill(parent, signal.SIGSTOP)),
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


def confined_exit(probe, threads=None):
    """Run ``probe`` in a confined child of this process; its exit code (-31: killed by SIGSYS)."""
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:
        confine(threads)
        try:
            probe(parent)
            os._exit(0)
        except OSError as error:
            os._exit(100 + error.errno)
    return os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1])


def test_confinement_is_reported():
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.write(write_end, json.dumps(confine()).encode())
        os._exit(0)
    os.close(write_end)
    with os.fdopen(read_end) as pipe:
        report = json.loads(pipe.read())
    os.waitpid(pid, 0)
    assert report == {"capabilities": "dropped", "seccomp": "signalling, tracing or re-prioritising another process "
                                                            "kills the worker"}


@pytest.mark.parametrize("name", sorted(PROBES))
def test_signals_tracing_and_scheduling_of_other_processes_kill_the_worker(name):
    assert confined_exit(PROBES[name]) == -signal.SIGSYS  # and this process was never stopped


@pytest.mark.parametrize("name", sorted(ALLOWED))
def test_what_a_kernel_does_to_itself_still_works(name):
    assert confined_exit(ALLOWED[name]) == 0


SPAWNS = {
    "fork": lambda parent: os.waitpid(os.fork() or os._exit(0), 0),
    "a thread": lambda parent: _in_thread(lambda: None),
    "a process through clone3": lambda parent: _libc_call("syscall", ARCHES[platform.machine()]["nr"]["clone3"], 0, 0),
    "posix_spawn": lambda parent: os.waitpid(os.posix_spawn("/bin/true", ["true"], {}), 0),
    "a timer": lambda parent: signal.setitimer(signal.ITIMER_REAL, 60.0),
}


@pytest.mark.parametrize("threads", [False, True, None])
@pytest.mark.parametrize("name", sorted(SPAWNS))
def test_on_a_host_device_no_process_starts_nor_a_thread_at_one_thread(name, threads):
    """Native code reaches pthread_create or fork from any library function's address; a thread left running when a
    call returns finishes the output in the untimed gap."""
    exit_code = confined_exit(SPAWNS[name], threads)
    if name == "a process through clone3":
        assert exit_code == 100 + (errno.ENOSYS if threads is not None else errno.EINVAL)  # glibc falls back to clone
    elif threads is None or (threads and name == "a thread"):  # a timer: signals the worker after its call
        assert exit_code == 0
    else:
        assert exit_code == -signal.SIGSYS


@pytest.mark.parametrize("arch", sorted(ARCHES))
def test_the_filter_assembles_for_each_known_architecture(arch):
    for threads in (None, False, True):
        code = assemble(program(ARCHES[arch], 4242, threads))
        assert 40 < len(code) < 130 and code[-1] == (0x06, 0, 0, 0x80000000)  # ends with RET KILL_PROCESS
        assert all(0 <= jt < 256 and 0 <= jf < 256 for _op, jt, jf, _k in code)


@pytest.mark.parametrize("path", adversarial("L1__relu__secrets_*.py"), ids=lambda p: p.stem)
def test_the_secrets_hacks_are_refused_on_cpu(path, tiny_relu, cpu_target, sandbox, brief, pool):
    result = evaluate(tiny_relu, path.read_text(), cpu_target, sandbox=sandbox, config=brief, runner=pool)
    assert matches(result, *runtime_expectation(path)), (result.status, result.stage, result.reason)


@pytest.mark.parametrize("target_name,path", [(name, path) for name in ("npu", "gpu")
                                              for path in adversarial("L1__relu__secrets_*.py", name)],
                         ids=lambda v: getattr(v, "stem", v))
def test_the_secrets_hacks_of_npu_and_triton_solutions_are_refused(target_name, path, request, tiny_relu, sandbox,
                                                                   brief, pool):
    target = request.getfixturevalue(f"{target_name}_target")
    result = evaluate(tiny_relu, path.read_text(), target, sandbox=sandbox, config=brief, runner=pool)
    assert matches(result, *runtime_expectation(path)), (result.status, result.stage, result.reason)


def test_a_worker_with_threads_already_running_is_confined_on_every_thread():
    """With OMP_NUM_THREADS above 1 a fork handler starts a thread in a forked worker: confine() refused such a
    process, and the solution's worker ran unconfined at --threads 2."""
    started = threading.Event()
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:
        errors = []
        waiting = threading.Thread(target=lambda: (started.wait(30), _capture(lambda: os.kill(parent, 0), errors)))
        waiting.start()  # a thread that exists before the filter is installed
        confine(True)
        started.set()
        waiting.join()
        os._exit(0)  # not reached: the thread's kill of another process kills the whole worker
    assert os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == -signal.SIGSYS
