"""The trusted runner: computes the reference, drives the workers, compares outputs, keeps the clock.

Runs as the sandbox command (``python -m benchmarks.kernels.verifier.runner.trusted``) in a work dir holding
``task.py``, ``solution.py``, ``config.json`` and ``nonce``. It never imports the solution: the
solution runs in a child worker, and only JSON replies and ``weights_only`` tensor files come back.
The verdict is printed as ``AKRESULT <hmac> <json>``, signed with the nonce that this process reads
and deletes before any untrusted code starts, so a fake score line cannot pass.
"""

from __future__ import annotations

import time

_BOOTED = time.perf_counter()  # before torch is imported: the phases below include its import

import importlib
import json
import os
import secrets
import signal
import sys
from typing import Any

import torch

from benchmarks.kernels.verifier.runner.compare import mismatch, tolerance
from benchmarks.kernels.verifier.runner.protocol import Channel, ChannelClosed, ChannelTimeout
from benchmarks.kernels.verifier.runner.signing import sign
from benchmarks.kernels.verifier.runner.timing import TimingLoop, simulated_timing
from benchmarks.kernels.verifier.runner.verdict import Verdict
from benchmarks.kernels.verifier.runner.worker import load_module, run_worker
from sandboxes import linux

_perf_counter = time.perf_counter


class WorkerHandle:
    """A worker forked from this runner before the nonce is read, with its channel and log file.

    Forking after ``import torch`` saves a torch import per worker; forking before the nonce is read
    keeps the nonce out of the worker's memory. The worker waits for ``start`` before loading code.
    """

    def __init__(self, role: str, call_timeout: float, pid: int, channel: Channel) -> None:
        """A handle on the worker ``pid`` (a child of this process) that talks over ``channel``."""
        self.role = role
        self.log_path = f"{role}.log"
        self.call_timeout = call_timeout
        self.pid = pid
        self.channel = channel
        self.exit_code: int | None = None

    @classmethod
    def fork(cls, role: str, call_timeout: float) -> "WorkerHandle":
        """Fork a worker from this process (its output goes to ``<role>.log``)."""
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        pid = os.fork()
        if pid == 0:  # the worker
            os.close(to_child_w)
            os.close(from_child_r)
            redirect_output(f"{role}.log")
            os._exit(run_worker(role, to_child_r, from_child_w))
        os.close(to_child_r)
        os.close(from_child_w)
        return cls(role, call_timeout, pid, Channel(from_child_r, to_child_w))

    def request(self, message: dict[str, Any], what: str, timeout: float | None = None) -> dict[str, Any]:
        """Send a command and return the reply; a dead, silent or failing worker becomes a Verdict."""
        try:
            self.channel.send(message)
            reply = self.channel.receive(timeout or self.call_timeout)
        except ChannelTimeout:
            self.kill()
            raise Verdict("timeout", f"{self.role} did not finish {what} within {timeout or self.call_timeout:.0f} s")
        except ChannelClosed:
            raise Verdict("crashed", f"{self.role} process died during {what}: {self.exit_detail()}")
        if not reply.get("ok", False):
            raise Verdict(reply.get("status") or "crashed", f"{self.role} raised during {what}:\n{reply.get('error', '')}")
        return reply

    def wait(self, timeout_s: float) -> int | None:
        """Reap the worker, waiting up to ``timeout_s``; its exit code, or None if it still runs."""
        deadline = time.monotonic() + timeout_s
        while self.exit_code is None:
            pid, status = os.waitpid(self.pid, os.WNOHANG)
            if pid:
                self.exit_code = os.waitstatus_to_exitcode(status)
            elif time.monotonic() > deadline:
                return None
            else:
                time.sleep(0.02)
        return self.exit_code

    def exit_detail(self) -> str:
        """Exit code and the tail of the worker's output (what it printed before dying)."""
        code = self.wait(5.0)
        if code is None:
            self.kill()
            code = "killed"
        with open(self.log_path, "rb") as log:
            tail = log.read()[-1200:].decode(errors="replace").strip()
        return f"exit code {code}" + (f"; output tail:\n{tail}" if tail else " with no output")

    def kill(self) -> None:
        """Stop the worker (idempotent)."""
        if self.exit_code is None:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.wait(10.0)

    def close(self) -> None:
        """Ask the worker to exit, then make sure it did."""
        try:
            self.channel.send({"cmd": "exit"})
            self.wait(5.0)
        except ChannelClosed:
            pass
        self.kill()


def redirect_output(path: str) -> None:
    """Send this process's stdout and stderr to ``path`` and read stdin from /dev/null (a worker's surroundings)."""
    log = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    os.dup2(log, 1)
    os.dup2(log, 2)
    os.close(log)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)


class Runner:
    """One evaluation: startup, correctness trials, timing."""

    def __init__(self, config: dict[str, Any], workers: dict[str, WorkerHandle]) -> None:
        self.config = config
        self.workers = workers
        self.phases: dict[str, float] = {}
        self.simulated_trials: list[dict[str, Any] | None] = []
        """Simulated timing of each correctness trial (simulated targets only)."""
        self._last_lap = _BOOTED
        self.task = load_module("task.py", "task")
        if config.get("shapes") == "gpu":
            for name, value in dict(getattr(self.task, "GPU_SHAPES", {})).items():
                setattr(self.task, name, value)
        self.base_seed = secrets.randbelow(2**31 - 1000)
        config["init_seed"] = self.base_seed
        torch.manual_seed(self.base_seed)
        init_inputs = self.task.get_init_inputs()
        torch.save(list(init_inputs), "init.pt")
        torch.manual_seed(self.base_seed)
        self.hooks = importlib.import_module(config["hooks"]).HOOKS
        self.reference = self.task.Model(*init_inputs).to(self.hooks.device)
        with open("config.json", "w") as handle:
            json.dump(config, handle)

    def inputs(self, seed: int) -> tuple[list[Any], torch.Tensor]:
        """Fresh inputs from ``seed`` and the trusted reference output for them."""
        torch.manual_seed(seed)
        inputs = list(self.task.get_inputs())
        with torch.no_grad():
            expected = self.reference(*self.hooks.to_device([x.clone() if isinstance(x, torch.Tensor) else x
                                                             for x in inputs]))
        return inputs, expected.to("cpu")

    def start(self, role: str) -> WorkerHandle:
        """Let a forked worker load its model and wait until it is ready (or asks for builds)."""
        worker = self.workers[role]
        try:
            worker.channel.send({"cmd": "start"})
            reply = worker.channel.receive(float(self.config["import_timeout_s"]))
        except ChannelTimeout:
            worker.kill()
            raise Verdict("timeout", f"{role} did not load within {self.config['import_timeout_s']} s")
        except ChannelClosed:
            raise Verdict("crashed", f"{role} process exited while loading: {worker.exit_detail()}")
        if reply.get("event") == "need_build":
            raise Verdict("need_build", "extensions must be built", specs=reply.get("specs", []))
        if reply.get("event") != "ready":
            raise Verdict(reply.get("status") or "crashed", f"{role} failed to load:\n{reply.get('error', '')}")
        return worker

    def check_correctness(self, worker: WorkerHandle) -> int:
        """Run ``trials`` fresh-seed trials; any mismatch, mutation or odd output is a Verdict."""
        previous: tuple[torch.Tensor, torch.Tensor] | None = None
        self.simulated_trials = []
        for trial in range(int(self.config["trials"])):
            inputs, expected = self.inputs(self.base_seed + 1 + trial)
            torch.save(inputs, "inputs.pt")
            reply = worker.request({"cmd": "check", "inputs": "inputs.pt", "output": "output.pt"}, f"trial {trial + 1}")
            output = self.read_output(reply, "output.pt", f"trial {trial + 1}")
            self.simulated_trials.append(reply.get("simulated"))
            if reply.get("inputs_changed"):
                raise Verdict("rejected", f"forward modified its input(s) {reply['inputs_changed']} in place "
                                           f"(trial {trial + 1}); inputs must be left unchanged")
            problem = mismatch(output, expected, *tolerance(expected.dtype, self.task))
            if problem and _looks_cached(previous, output, expected):
                raise Verdict("rejected", f"trial {trial + 1}: the output is identical to the previous trial's "
                                          f"although the inputs changed (a cached result): {problem}")
            if problem:
                raise Verdict("incorrect", f"trial {trial + 1} of {self.config['trials']}: {problem}")
            previous = (output, expected)
        return int(self.config["trials"])

    def read_output(self, reply: dict[str, Any], path: str, what: str) -> torch.Tensor:
        """Load a worker's saved output safely; anything but a plain tensor is a Verdict."""
        if reply.get("output_kind") != "tensor":
            raise Verdict("rejected", f"{what}: output must be a plain materialised torch.Tensor, got "
                                       f"{reply.get('output_kind')}")
        try:
            output = torch.load(path, weights_only=True)
        except Exception as error:
            raise Verdict("incorrect", f"{what}: output file unreadable: {error}")
        finally:
            if os.path.exists(path):
                os.unlink(path)
        if type(output) is not torch.Tensor:
            raise Verdict("incorrect", f"{what}: output is {type(output).__name__}, not a torch.Tensor")
        return output

    def evaluate(self) -> dict[str, Any]:
        """The whole evaluation as a result dict (status, reason, times, extras)."""
        self.lap("startup_s")
        solution = self.start("solution")
        self.lap("load_s")
        trials = self.check_correctness(solution)
        self.lap("correctness_s")
        result: dict[str, Any] = {"status": "correct", "reason": "", "trials": trials, "phases": self.phases}
        if self.config["timing"] == "none":
            result["reason"] = self.config.get("not_timed_reason") or "not timed"
            return result
        if self.config["timing"] == "simulated":
            result.update(simulated_timing(self, self.simulated_trials))
        else:
            result.update(TimingLoop(self, solution, self.start("reference")).measure())
        self.lap("timing_s")
        return result

    def lap(self, phase: str) -> None:
        """Record the seconds since the previous lap (the first lap counts from interpreter start)."""
        now = _perf_counter()
        self.phases[phase] = round(now - self._last_lap, 3)
        self._last_lap = now



def _looks_cached(previous: tuple[torch.Tensor, torch.Tensor] | None, output: torch.Tensor,
                 expected: torch.Tensor) -> bool:
    """True when the output repeats the previous trial's exactly while the reference changed."""
    if previous is None or previous[0].shape != output.shape or previous[0].dtype != output.dtype:
        return False
    return bool(torch.equal(previous[0], output)) and not torch.equal(previous[1], expected)


def evaluate_with(config: dict[str, Any], workers: dict[str, WorkerHandle],
                  started: float | None = None) -> dict[str, Any]:
    """Evaluate with already forked ``workers`` (closed afterwards); the result dict, never raises a Verdict.
    ``started``: when the evaluation began (default: interpreter start)."""
    runner = None
    try:
        runner = Runner(config, workers)
        if started is not None:
            runner._last_lap = started
        result = runner.evaluate()
    except Verdict as verdict:
        result = {"status": verdict.status, "reason": verdict.reason, **verdict.fields}
        if runner is not None:
            result["phases"] = runner.phases
    finally:
        for worker in workers.values():
            worker.close()
    return result


def signed_line(nonce: str, result: dict[str, Any]) -> str:
    """The verdict line ``AKRESULT <hmac> <json>`` the host checks."""
    payload = json.dumps(result)
    return f"AKRESULT {sign(nonce, payload)} {payload}\n"


def main() -> int:
    """Fork the workers, read and delete the nonce, evaluate, print the signed verdict."""
    linux.set_dumpable(False)  # workers (same user) may not read this process's memory nor ptrace it
    with open("config.json") as handle:
        config = json.load(handle)
    torch.set_num_threads(int(config.get("threads", 1)))
    workers = {role: WorkerHandle.fork(role, float(config["call_timeout_s"])) for role in ("solution", "reference")}
    with open("nonce") as handle:
        nonce = handle.read().strip()
    os.unlink("nonce")
    result = evaluate_with(config, workers)
    sys.stdout.write(signed_line(nonce, result))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
