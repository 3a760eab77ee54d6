"""The trusted runner: computes the reference, drives the workers, checks outputs, keeps the clock.

Runs as the sandbox command (``python -m benchmarks.kernels.verifier.runner.trusted``) in a work dir holding
``task.py``, ``solution.py``, ``config.json`` and ``nonce``. It never imports the solution: the
solution runs in a child worker, and only JSON replies and raw output bytes come back. The verdict is
printed as ``AKRESULT <hmac> <json>``, signed with the nonce that this process reads and deletes before
any untrusted code starts, so a fake score line cannot pass.

Secrets stay here: every seed (the init seed, one per input set) comes from ``os.urandom`` after the
workers were forked, and none is written anywhere; inputs reach a worker only through its own shared
region, one call at a time, and the checks run on copies this process holds (see :mod:`.calls`).
"""

from __future__ import annotations

import time

_BOOTED = time.perf_counter()  # before torch is imported: the phases below include its import

import contextlib
import importlib
import io
import json
import os
import sys
from typing import Any, Iterator

import torch

from benchmarks.kernels.verifier.runner.calls import Batch, Side
from benchmarks.kernels.verifier.runner.checks import OutputChecks
from benchmarks.kernels.verifier.runner.compare import RANGE_SCALE, compare, tolerance
from benchmarks.kernels.verifier.runner.handles import WorkerHandle
from benchmarks.kernels.verifier.runner.inputs import layout_of, overlapping_input
from benchmarks.kernels.verifier.runner.precision import FLOAT64_TRIALS, PrecisionCheck
from benchmarks.kernels.verifier.runner.protocol import ChannelClosed, ChannelTimeout
from benchmarks.kernels.verifier.runner.signing import sign
from benchmarks.kernels.verifier.runner.task_modules import TASK_MODULES
from benchmarks.kernels.verifier.runner.timing import TimingLoop, simulated_timing
from benchmarks.kernels.verifier.runner.verdict import Verdict
from sandboxes import linux

_perf_counter = time.perf_counter
ROLES = ("solution", "reference")


def roles(config: dict[str, Any]) -> tuple[str, ...]:
    """The workers an evaluation starts: only the solution's when the target is simulated or not timed (the
    reference then runs only here, in the runner, and its baseline comes from the hooks), else both."""
    return ROLES if config["timing"] not in ("simulated", "none") else ROLES[:1]


def fresh_seed() -> int:
    """A seed from the kernel's random source (63 bits), never derived from another."""
    return int.from_bytes(os.urandom(8), "little") >> 1


@contextlib.contextmanager
def task_code(what: str) -> Iterator[None]:
    """The task's own code (its import, input makers or Model): an exception there is a ``task_error``, which says
    nothing about the solution (it was a crash with the runner's traceback as the reason)."""
    try:
        yield
    except Verdict:
        raise
    except Exception as error:  # a task file is arbitrary Python
        raise Verdict("task_error", f"the task's {what} raised {type(error).__name__}: {error}", stage="load") \
            from error


class Runner:
    """One evaluation: startup, correctness trials, timing."""

    def __init__(self, config: dict[str, Any], workers: dict[str, WorkerHandle]) -> None:
        self.config = config
        self.workers = workers
        self.phases: dict[str, float] = {}
        self.flags: list[str] = []
        self.evidence: dict[str, Any] = {}
        self.simulated_trials: list[dict[str, Any] | None] = []
        """Simulated timing of each correctness trial (simulated targets only)."""
        self.last_batch: Batch | None = None
        """The inputs of the last correctness trial (the runner's own tensors)."""
        self._last_lap = _BOOTED
        with open("task.py") as handle:
            self.task_source = handle.read()
        with task_code("import"):
            self.task = TASK_MODULES.get(self.task_source, config.get("shapes"))
        self.init_seed = fresh_seed()
        torch.manual_seed(self.init_seed)
        with task_code("get_init_inputs()"):
            init_inputs = list(self.task.get_init_inputs())
        buffer = io.BytesIO()
        torch.save(init_inputs, buffer)
        self.init_blob = buffer.getvalue()
        with open("init.pt", "wb") as handle:  # for the npu hooks' roofline only: nothing trusted reads it
            handle.write(self.init_blob)
        torch.manual_seed(self.init_seed)
        self.hooks = importlib.import_module(config["hooks"]).HOOKS
        with task_code("Model(*get_init_inputs())"):
            self.reference = self.task.Model(*init_inputs).to(self.hooks.device)
        legacy = config.get("timing_checks") == "legacy_sampled"
        precision = PrecisionCheck(self.reference, not legacy, self.hooks.to_device)
        self.checks = OutputChecks(self.task, precision, "off" if legacy else config.get("tripwire", "refuse"),
                                   self.flags)

    def batch(self) -> Batch:
        """Fresh inputs from a fresh seed (the runner's own tensors) and their layout in a region."""
        torch.manual_seed(fresh_seed())
        with task_code("get_inputs()"):
            values = list(self.task.get_inputs())
        try:
            slots, nbytes = layout_of(values)
        except TypeError as error:
            raise Verdict("crashed", f"the task's get_inputs() cannot be handed to a worker: {error}", stage="load")
        return Batch(values, slots, nbytes)

    def expected(self, batch: Batch) -> torch.Tensor:
        """The trusted reference output for ``batch``, computed here (noting whether it views its input)."""
        inputs = self.hooks.to_device(batch.fresh_inputs())
        with torch.no_grad():
            output = self.reference(*inputs)
        if not isinstance(output, torch.Tensor):
            raise Verdict("task_error", f"the task's Model returns {type(output).__name__}, not one tensor: the verifier "
                                        "judges kernels of single-tensor outputs (return one tensor, or concatenate "
                                        "the parts)", stage="load")
        if overlapping_input(output, inputs) is not None:
            self.checks.allow_overlap = True
        return output.to("cpu")

    def start(self, role: str) -> WorkerHandle:
        """Send a forked worker what it needs to load its model, and wait until it is ready."""
        worker = self.workers[role]
        message = {"cmd": "start", "config": self.config, "init_seed": self.init_seed,
                   "task": self.task_source if role == "reference" else None}
        try:
            worker.channel.send(message, self.init_blob)
            reply = worker.channel.receive(float(self.config["import_timeout_s"]), max_blob_bytes=0)
        except ChannelTimeout:
            worker.kill()
            raise Verdict("timeout", f"{role} did not load within {self.config['import_timeout_s']} s", stage="load")
        except ChannelClosed as error:
            raise worker.died("loading", str(error), stage="load")
        if reply.get("event") == "need_build":
            raise Verdict("need_build", "extensions must be built", stage="load", specs=reply.get("specs", []))
        if reply.get("event") != "ready":
            raise Verdict(reply.get("status") or "crashed", f"{role} failed to load:\n{reply.get('error', '')}",
                          stage="load")
        if role == "solution":
            self._note_confinement(reply.get("confinement") or {})
        return worker

    def _note_confinement(self, confinement: dict[str, Any]) -> None:
        self.evidence["confinement"] = confinement
        if "error" in confinement:
            self.flags.append("solution worker not confined")

    def check_correctness(self, worker: WorkerHandle) -> Side:
        """Run ``trials`` trials on fresh inputs: every check of :class:`OutputChecks`, float64 precision on
        the first trials and the bound they set on the others; the solution's side for the timing."""
        trials = int(self.config["trials"])
        self.simulated_trials = []
        side = None
        for trial in range(trials):
            what = f"trial {trial + 1} of {trials}"
            batch = self.last_batch = self.batch()
            expected = self.expected(batch)
            side = side or Side(worker, expected.numel() * expected.element_size())
            side.feed(batch, what)
            reply, _ = side.call(what, trace=self.checks.tripwire != "off")
            output = side.collect(what)
            self.simulated_trials.append(reply.get("simulated"))
            with self.blamed_if_reference_repeats(batch, expected, what):
                comparison = self.checks.judge(side, batch, output, expected, what, stage="correctness")
                if trial < FLOAT64_TRIALS:
                    self.checks.precise_trial(batch, expected, output, what)
                else:
                    self.checks.precise_later(comparison, what)
        if side is not None and self.config.get("range_check", "off") != "off":
            self.range_trial(side, f"range trial (floating inputs times {RANGE_SCALE:g})")
        return side

    def range_trial(self, side: Side, what: str) -> None:
        """One trial on fresh inputs scaled by :data:`RANGE_SCALE`, unless the reference fails or overflows on
        them; the evidence says how it went. A wrong value there refuses the solution or, with ``range_check``
        "flag", flags it; every other check refuses as on any trial."""
        self.evidence["range_trial"] = self._range_outcome(side, what)

    def _range_outcome(self, side: Side, what: str) -> str:
        if not getattr(self.task, "RANGE_CHECK", True):
            return "skipped: the task sets RANGE_CHECK = False"
        fresh = self.batch()
        batch = Batch([x * RANGE_SCALE if isinstance(x, torch.Tensor) and x.is_floating_point() else x
                       for x in fresh.values], fresh.slots, fresh.nbytes)
        try:
            expected = self.expected(batch)
        except Verdict:
            raise
        except Exception as error:  # a task whose reference needs its own input range (a domain check)
            return f"skipped: the reference failed on them ({error})"
        if expected.is_floating_point() and not bool(torch.isfinite(expected).all()):
            return "skipped: the reference is not finite on them"
        side.feed(batch, what)
        side.call(what, trace=self.checks.tripwire != "off")
        output = side.collect(what)
        try:
            with self.blamed_if_reference_repeats(batch, expected, what):
                self.checks.judge(side, batch, output, expected, what, stage="correctness", scaled=True)
        except Verdict as verdict:
            if self.config["range_check"] != "flag" or (verdict.status, verdict.stage) != ("incorrect", "correctness"):
                raise
            self.flags.append("wrong outside the task's input range")
            return f"failed: {verdict.reason}"
        return "passed"

    @contextlib.contextmanager
    def blamed_if_reference_repeats(self, batch: Batch, expected: torch.Tensor, what: str) -> Iterator[None]:
        """A mismatch found inside is the solution's only if the reference repeats itself (:meth:`reference_repeats`)."""
        try:
            yield
        except Verdict as verdict:
            if verdict.status == "incorrect":
                self.reference_repeats(batch, expected, what)
            raise

    def reference_repeats(self, batch: Batch, expected: torch.Tensor, what: str) -> None:
        """Before a mismatch is blamed on the solution: the reference, run again on the same inputs from another
        random state, must give the same output. A task whose reference does not (dropout in training mode, random
        draws in ``forward``) cannot judge any kernel: a ``task_error``, which says nothing about the solution."""
        torch.manual_seed(fresh_seed())
        problem = compare(self.expected(batch), expected, *tolerance(expected.dtype, self.task)).problem
        if problem:
            raise Verdict("task_error", f"{what}: the task's reference gave two different outputs for the same inputs "
                                        "(random draws in forward, such as dropout in training mode), so no kernel "
                                        f"can be checked against it: {problem}", stage="reference")

    def evaluate(self) -> dict[str, Any]:
        """The whole evaluation as a result dict (status, stage, reason, times, extras, evidence)."""
        self.lap("startup_s")
        solution = self.start("solution")
        self.lap("load_s")
        side = self.check_correctness(solution)
        self.lap("correctness_s")
        result: dict[str, Any] = {"status": "correct", "stage": "correctness", "reason": "",
                                  "trials": int(self.config["trials"]), "phases": self.phases}
        if self.config["timing"] == "none":
            result["reason"] = self.config.get("not_timed_reason") or "not timed"
        elif self.config["timing"] == "simulated":
            result.update(simulated_timing(self, self.simulated_trials))
        else:
            reference = Side(self.start("reference"), side.output_bytes)
            result.update(TimingLoop(self, side, reference).measure(), stage="timing")
        self.lap("timing_s")
        result["flags"] = list(dict.fromkeys([*result.get("flags", []), *self.flags]))
        return result

    def lap(self, phase: str) -> None:
        """Record the seconds since the previous lap (the first lap counts from interpreter start)."""
        now = _perf_counter()
        self.phases[phase] = round(now - self._last_lap, 3)
        self._last_lap = now

    def collect_evidence(self) -> dict[str, Any]:
        """What the checks saw, for the verdict (also when it is a refusal)."""
        evidence = dict(self.evidence)
        evidence["checked_outputs"] = self.checks.checked
        evidence["precision"] = self.checks.precision.evidence()
        if self.checks.tripwire_report is not None:
            evidence["tripwire"] = self.checks.tripwire_report
        return evidence


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
        result = {"status": verdict.status, "stage": verdict.stage, "reason": verdict.reason, **verdict.fields}
        if runner is not None:
            result["phases"] = runner.phases
            result["flags"] = runner.flags
    finally:
        for worker in workers.values():
            worker.close()
    if runner is not None:
        result["evidence"] = runner.collect_evidence()
    result["request"] = config.get("request", "")
    return result


def signed_line(nonce: str, result: dict[str, Any]) -> str:
    """The verdict line ``AKRESULT <hmac> <json>`` the host checks (the signature covers the whole JSON)."""
    payload = json.dumps(result)
    return f"AKRESULT {sign(nonce, payload)} {payload}\n"


def main() -> int:
    """Fork the workers, read and delete the nonce, evaluate, print the signed verdict."""
    linux.set_dumpable(False)  # workers (same user) may not read this process's memory nor ptrace it
    with open("config.json") as handle:
        config = json.load(handle)
    torch.set_num_threads(int(config.get("threads", 1)))
    workers: dict[str, WorkerHandle] = {}
    for role in roles(config):
        workers[role] = WorkerHandle.fork(role, float(config["call_timeout_s"]), list(workers.values()))
    with open("nonce") as handle:
        nonce = handle.read().strip()
    os.unlink("nonce")
    result = evaluate_with(config, workers)
    sys.stdout.write(signed_line(nonce, result))
    sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())
