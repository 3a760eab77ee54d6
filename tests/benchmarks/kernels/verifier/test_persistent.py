"""The persistent trusted runner in the real local sandbox: candidates back to back through one server.

Runtime defences are tested with the static checks off (they would refuse these files before any run).
"""

import json

import pytest

from benchmarks.kernels.verifier.harness import EvalConfig, evaluate
from benchmarks.kernels.verifier.runner.launch import parse_verdict
from benchmarks.kernels.verifier.runner.persistent import PersistentRunner, VerifierPool, _Server
from benchmarks.kernels.verifier.runner.signing import sign
from sandboxes.process import ProcessExited
from benchmarks.kernels.suite import solutions_dir

GOOD = '''
import torch
import torch.nn as nn


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.relu(x)
'''

FIND_LEFTOVERS = '''
import os


def leftovers():
    names = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/comm") as handle:
                names.append(handle.read().strip())
        except OSError:
            pass
    return [n for n in names if n == "akdaemon"] + [f for f in os.listdir("/tmp") if f.startswith("ak-left")]
'''

DAEMONISES = FIND_LEFTOVERS + '''
import ctypes
import time

open("/tmp/ak-left-behind", "w").write("x")
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        ctypes.CDLL(None).prctl(15, b"akdaemon", 0, 0, 0)
        while True:
            if os.fork() == 0:
                time.sleep(600)
            time.sleep(0.05)
    os._exit(0)
deadline = time.time() + 20
while "akdaemon" not in leftovers() and time.time() < deadline:
    time.sleep(0.05)
assert "akdaemon" in leftovers(), "the probe must see a live daemon"
''' + GOOD

PROBES = FIND_LEFTOVERS + '''
if leftovers():
    raise RuntimeError(f"left behind by an earlier candidate: {leftovers()}")
''' + GOOD

KILLS_SERVER = '''
import os
import signal

os.kill(os.getppid(), signal.SIGKILL)
''' + GOOD

HANGS = '''
import time

time.sleep(600)
''' + GOOD

FORGES = '''
import os

import torch
import torch.nn as nn

LINE = 'AKRESULT 0 {"status": "correct", "runtime_ms": 0.001, "reference_ms": 1.0}\\n'
for fd in (1, 2):
    try:
        with open(f"/proc/{os.getppid()}/fd/{fd}", "w") as handle:
            handle.write(LINE)
    except OSError:
        continue
    raise RuntimeError("opened the server's output through /proc (it must not be dumpable)")
try:
    open(f"/proc/{os.getppid()}/mem", "rb").close()
except OSError:
    pass
else:
    raise RuntimeError("could read the server's memory, where the nonce is (it must not be dumpable)")
print(LINE, flush=True)


class ModelNew(nn.Module):
    def forward(self, x):
        return torch.zeros_like(x)
'''

BUILDS_AT_RUN_TIME = '''
import torch
import torch.nn as nn

from sandboxes.targets.native import load_cpp

SOURCE = "".join([
    "#include <cstdint>\\n",
    'extern "C" void relu_persistent(float* out, const float* x, int64_t n) {',
    " for (int64_t i = 0; i < n; ++i) out[i] = x[i] > 0.0f ? x[i] : 0.0f; }\\n",
])
lib = load_cpp("relu_persistent", SOURCE, {"relu_persistent": ["tensor", "tensor", "int"]})


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        out = torch.empty_like(x)
        lib.relu_persistent(out, x, x.numel())
        return out
'''


@pytest.fixture
def unchecked(quick):
    """The quick config without static checks (to test the runtime defences); GOOD computes with torch itself, so
    the tripwire only flags it here. The wall limit leaves room for a one-shot runner on a crowded machine (at 25 s
    it was exceeded at a load average of 19); the hang test sets its own short limit."""
    return quick.model_copy(update={"static_checks": False, "timeout_s": 120.0, "tripwire": "flag"})


@pytest.fixture
def runner():
    with VerifierPool() as pool:
        yield pool


def verify(source, task, target, sandbox, config, runner):
    return evaluate(task, source, target, sandbox=sandbox, config=config, runner=runner)


def test_a_daemon_of_one_candidate_does_not_survive_into_the_next(runner, tiny_relu, cpu_target, sandbox, unchecked):
    """On a host device the solution's worker may not start a process at all (the kernel kills it at the fork); what
    it wrote before is wiped all the same, and the next candidate runs on the same server."""
    first = verify(DAEMONISES, tiny_relu, cpu_target, sandbox, unchecked, runner)
    assert (first.status.value, first.stage) == ("rejected", "isolation"), first.reason
    assert "start a process" in first.reason
    second = verify(PROBES, tiny_relu, cpu_target, sandbox, unchecked, runner)
    assert second.status.value == "correct", second.reason
    assert runner.servers_started == 1, runner.retired  # cleaned up between requests, not by a restart


def test_a_candidate_cannot_kill_the_server_and_the_next_one_runs_on_it(runner, tiny_relu, cpu_target, sandbox,
                                                                         unchecked):
    killed = verify(KILLS_SERVER, tiny_relu, cpu_target, sandbox, unchecked, runner)
    assert (killed.status.value, killed.stage) == ("rejected", "isolation"), killed.reason
    assert "killed by the kernel during loading" in killed.reason
    after = verify(GOOD, tiny_relu, cpu_target, sandbox, unchecked, runner)
    assert after.status.value == "correct", after.reason
    assert runner.servers_started == 1, runner.retired


def test_a_hang_past_the_wall_limit_is_a_timeout_and_the_next_one_runs(runner, tiny_relu, cpu_target, sandbox,
                                                                       unchecked):
    config = unchecked.model_copy(update={"timeout_s": 6.0, "import_timeout_s": 60.0})
    hung = verify(HANGS, tiny_relu, cpu_target, sandbox, config, runner)
    assert hung.status.value == "timeout" and "6 s" in hung.reason
    assert verify(GOOD, tiny_relu, cpu_target, sandbox, config, runner).status.value == "correct"


@pytest.mark.parametrize("mode", ["one-shot", "persistent"])
def test_forged_verdict_lines_are_not_believed_and_the_runner_cannot_be_read(mode, runner, tiny_relu, cpu_target,
                                                                             sandbox, unchecked):
    chosen = runner if mode == "persistent" else None
    forged = verify(FORGES, tiny_relu, cpu_target, sandbox, unchecked, chosen)
    assert forged.status.value == "incorrect", forged.reason
    assert verify(GOOD, tiny_relu, cpu_target, sandbox, unchecked, chosen).status.value == "correct"
    assert runner.servers_started == (1 if mode == "persistent" else 0), runner.retired


def test_extensions_built_between_requests_are_seen_by_the_same_server(runner, tiny_relu, cpu_target, sandbox,
                                                                       unchecked):
    result = verify(BUILDS_AT_RUN_TIME, tiny_relu, cpu_target, sandbox, unchecked, runner)
    assert result.status.value == "correct", result.reason
    assert runner.servers_started == 1, runner.retired


def test_a_good_solution_gets_the_same_verdict_in_both_modes(sandbox):
    from benchmarks.kernels.tasks import load_tasks
    from sandboxes.targets.npu.target import NpuTarget

    from benchmarks.kernels.verifier.harness import EvalConfig

    target = NpuTarget()
    task = load_tasks("builtin:L1:add")[0]
    source = (solutions_dir("builtin:reference", "npu") / "L1__add.py").read_text()
    config = EvalConfig(warmup=0, min_timed_trials=2, timed_trials=2, timing_budget_s=0.0)
    one_shot = evaluate(task, source, target, sandbox=sandbox, config=config).to_row()
    runner = PersistentRunner()
    try:
        result = evaluate(task, source, target, sandbox=sandbox, config=config, runner=runner)
    finally:
        runner.close()
    assert result.phases["cpu_s"] > 0  # what the request cost the server and its workers
    persistent = result.to_row()
    for row in (one_shot, persistent):
        row.pop("seconds", None)
        row.pop("phases", None)
    assert one_shot["status"] == "correct", one_shot
    assert persistent == one_shot


@pytest.mark.docker
def test_the_same_defences_hold_in_docker(tiny_relu, cpu_target, unchecked):
    from sandboxes.select import docker_answers, get_sandbox

    problem = docker_answers()
    if problem is not None:
        pytest.skip(f"Docker engine not available ({problem}); start it with .ci/start-dockerd.sh")
    box = get_sandbox("docker")
    with VerifierPool() as runner:
        sources = [DAEMONISES, PROBES, FORGES, KILLS_SERVER,
                   BUILDS_AT_RUN_TIME.replace("relu_persistent", "relu_docker")]
        statuses = [verify(s, tiny_relu, cpu_target, box, unchecked, runner).status.value for s in sources]
        assert statuses == ["rejected", "correct", "incorrect", "rejected", "correct"]  # no process may start
        assert runner.servers_started == 1, runner.retired  # the kill was refused: the server lived on


class ScriptedServer:
    """Stands in for a server's process: answers with the given lines, then exits with ``code``."""

    def __init__(self, lines, code=None):
        self.lines, self.code, self.closed = list(lines), code, False

    def write(self, data, timeout_s):
        pass

    def read_line(self, timeout_s):
        if not self.lines:
            raise ProcessExited("the sandboxed process closed its output")
        return self.lines.pop(0).encode()

    def oom_kills(self):
        return 0

    def wait(self, timeout_s=None):
        return self.code

    def kill(self):
        self.code = 137 if self.code is None else self.code

    @property
    def returncode(self):
        return self.code

    def stderr_tail(self):
        return ""

    def close(self):
        self.closed = True


def exchange(lines, code=None):
    runner, config = PersistentRunner(), EvalConfig(timeout_s=5.0)
    request = {"nonce": "n1", "config": {"request": "r"}}
    record = runner._exchange(_Server(ScriptedServer(lines, code), "key"), request, config)
    return parse_verdict(record, "n1", config, "r")


def signed(payload):
    text = json.dumps(payload)
    return f"AKRESULT {sign('n1', text)} {text}"


def test_the_host_reads_on_to_akready_and_a_second_signed_verdict_means_tampering():
    forged = signed({"status": "correct", "request": "r"})
    real = signed({"status": "incorrect", "request": "r"})
    assert exchange([real, "AKREADY"])["status"] == "incorrect"
    assert exchange([forged, real, "AKREADY"])["status"] == "rejected"


def test_a_server_that_dies_after_its_verdict_instead_of_saying_akready_is_not_believed():
    verdict = exchange([signed({"status": "correct", "request": "r"})], code=137)
    assert verdict["status"] == "crashed" and "killed by signal 9" in verdict["reason"]
