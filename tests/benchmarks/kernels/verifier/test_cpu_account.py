"""The runner's count of each worker's CPU outside its calls: read from /proc, nested windows counted once, and a
solution whose work happens off the clock refused (its own CPU against the reference worker's)."""

import contextlib
import os
import socket
import time

import pytest

from benchmarks.kernels.verifier.harness import evaluate
from benchmarks.kernels.verifier.runner.cpu_account import CpuAccount, cpu_ns, off_the_clock
from tests.benchmarks.kernels.verifier.verdicts import adversarial, matches, runtime_expectation


def _busy(seconds: float) -> None:
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass


def test_cpu_outside_the_calls_is_told_apart_from_the_calls():
    mine, theirs = socket.socketpair()
    pid = os.fork()
    if pid == 0:  # a worker: 20 ms a call, 5 ms for anything else
        mine.close()
        while message := theirs.recv(16):
            _busy(0.02 if message == b"run" else 0.005)
            theirs.send(b"ok")
        os._exit(0)
    theirs.close()
    account = CpuAccount(pid)
    for _ in range(10):
        for message in (b"prep", b"run", b"out"):
            with account.call() if message == b"run" else contextlib.nullcontext():
                with account.call() if message == b"run" else contextlib.nullcontext():  # nested: counted once
                    mine.send(message)
                    mine.recv(16)
    outside, calls = account.outside_ms(), account.calls_ns / 1e6
    mine.close()
    os.waitpid(pid, 0)
    assert 90 < outside < 130 and 190 < calls < 240, (outside, calls)
    assert cpu_ns(pid) is None  # gone: nothing to read


def test_the_allowance_is_the_references_cpu_and_a_little_more():
    assert off_the_clock(60.0, 64.0, 50) == ""  # an honest relu: 58 against 64 ms over 50 rounds
    assert off_the_clock(None, 64.0, 50) == off_the_clock(60.0, None, 50) == ""  # /proc unreadable: no verdict
    assert "166.1 ms of CPU outside its calls over 50 rounds, the reference's 62.8 ms" in off_the_clock(166.1, 62.8, 50)


@pytest.mark.parametrize("path", adversarial("L1__relu__native_*handover*.py"), ids=lambda p: p.stem)
def test_work_in_the_hand_over_of_the_output_is_refused(path, large_relu, cpu_target, sandbox, quick, pool):
    result = evaluate(large_relu, path.read_text(), cpu_target, sandbox=sandbox, config=quick, runner=pool)
    assert matches(result, *runtime_expectation(path)), (result.status, result.stage, result.reason)
