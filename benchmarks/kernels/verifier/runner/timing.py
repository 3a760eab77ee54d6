"""Timing in the trusted runner: warm-up, interleaved trials of solution and reference, re-checks.

Each trial refills the worker's input buffers with one of several input sets (outside the clock),
then the runner's own ``perf_counter`` brackets one ``run`` round trip. The reference worker is
timed the same way in the same loop, alternating which side goes first. On a device-timed target
the worker's event time is used, and flagged when it exceeds the runner's wall time; on a simulated
target the hooks' simulated time is used. A few randomly chosen timed outputs are re-checked
against the reference, so a kernel that is only correct when it is not being timed fails.

Simulated times depend on shapes, not on the clock, so a simulated target skips the loop
(:func:`simulated_timing`): the solution's times are those of its correctness trials, whose outputs
were all checked, and the reference's comes from the hooks' baseline run here in the runner.
"""

from __future__ import annotations

import random
import statistics
import time
from typing import TYPE_CHECKING, Any

import torch

from benchmarks.kernels.verifier.runner.compare import mismatch, tolerance
from benchmarks.kernels.verifier.runner.verdict import Verdict

if TYPE_CHECKING:
    from benchmarks.kernels.verifier.runner.trusted import Runner, WorkerHandle

_perf_counter = time.perf_counter
INPUT_SETS = 2
RECHECKS = 3
SPEEDUP_REVIEW = 10.0


class TimingLoop:
    """Measures solution and reference under identical conditions."""

    def __init__(self, runner: "Runner", solution: "WorkerHandle | None", reference: "WorkerHandle | None") -> None:
        self.runner = runner
        self.config = runner.config
        self.sides = {"solution": solution, "reference": reference}
        self.samples: dict[str, list[float]] = {"solution": [], "reference": []}
        self.simulated: dict[str, dict[str, Any]] = {}
        self.flags: list[str] = []
        self.expected: list[torch.Tensor] = []

    def prepare(self) -> None:
        """Write the input sets and hand them to both workers."""
        paths = []
        for index in range(INPUT_SETS):
            inputs, expected = self.runner.inputs(self.runner.base_seed + 1000 + index)
            paths.append(f"timing_{index}.pt")
            torch.save(inputs, paths[-1])
            self.expected.append(expected)
        for worker in self.sides.values():
            worker.request({"cmd": "load_sets", "paths": paths}, "loading timing inputs")

    def trial(self, side: str, input_set: int) -> float:
        """One timed call of ``side`` in ms, by the clock this target trusts."""
        worker = self.sides[side]
        worker.request({"cmd": "prep", "set": input_set}, "timing preparation")
        started = _perf_counter()
        reply = worker.request({"cmd": "run"}, "a timed run")
        wall_ms = (_perf_counter() - started) * 1e3
        mode = self.config["timing"]
        if mode == "simulated":
            return self.simulated_ms(side, reply.get("simulated"))
        if mode == "device" and reply.get("device_ms") is not None:
            device_ms = float(reply["device_ms"])
            if device_ms > wall_ms * 1.05 + 0.05 and "device_time_exceeds_wall" not in self.flags:
                self.flags.append("device_time_exceeds_wall")
            return device_ms
        return wall_ms

    def simulated_ms(self, side: str, simulated: dict[str, Any] | None) -> float:
        """The simulated runtime of one call of ``side``; its profiler fields are kept for the extras."""
        if not simulated or "runtime_ms" not in simulated:
            raise Verdict("crashed", f"{side}: simulated target returned no runtime_ms")
        self.simulated[side] = simulated
        return float(simulated["runtime_ms"])

    def recheck(self, input_set: int, trial: int) -> None:
        """Compare the output of the timed call just made with the reference for its input set."""
        what = f"timed trial {trial + 1}"
        reply = self.sides["solution"].request({"cmd": "save_last", "output": "timed_output.pt"}, what)
        output = self.runner.read_output(reply, "timed_output.pt", what)
        expected = self.expected[input_set]
        problem = mismatch(output, expected, *tolerance(expected.dtype, self.runner.task))
        if problem:
            raise Verdict("rejected", f"{what} (output re-checked after timing): {problem}; the kernel is "
                                      "only correct outside the timed loop")

    def measure(self) -> dict[str, Any]:
        """Warm up, run interleaved trials until enough samples and time, return the timing fields."""
        self.prepare()
        for index in range(int(self.config["warmup"])):
            for side in self.sides:
                self.trial(side, index % INPUT_SETS)
        max_trials, min_trials = int(self.config["timed_trials"]), int(self.config["min_timed_trials"])
        rechecks = set(random.Random(self.runner.base_seed).sample(range(min_trials), min(RECHECKS, min_trials)))
        started = _perf_counter()
        for trial in range(max_trials):
            order = ("solution", "reference") if trial % 2 == 0 else ("reference", "solution")
            for side in order:
                self.samples[side].append(self.trial(side, trial % INPUT_SETS))
                if side == "solution" and trial in rechecks:
                    self.recheck(trial % INPUT_SETS, trial)
            if trial + 1 >= min_trials and _perf_counter() - started > float(self.config["timing_budget_s"]):
                break
        return self.summary()

    def summary(self) -> dict[str, Any]:
        """Median and inter-quartile range of each side, flags and simulated extras."""
        solution, reference = self.samples["solution"], self.samples["reference"]
        fields: dict[str, Any] = {
            "runtime_ms": statistics.median(solution), "reference_ms": statistics.median(reference),
            "runtime_spread_ms": _iqr(solution), "reference_spread_ms": _iqr(reference),
            "timed_trials": len(solution), "flags": self.flags,
        }
        if fields["runtime_ms"] > 0 and fields["reference_ms"] / fields["runtime_ms"] > SPEEDUP_REVIEW:
            self.flags.append(f"speedup>{SPEEDUP_REVIEW:g}x: review")
        extras = {k: v for k, v in self.simulated.get("solution", {}).items() if k != "runtime_ms"}
        extras.update({f"reference_{k}": v for k, v in self.simulated.get("reference", {}).items()
                       if k in ("cycles",)})
        fields["extras"] = extras
        return fields


def simulated_timing(runner: "Runner", solution_trials: list[dict[str, Any] | None]) -> dict[str, Any]:
    """Timing fields of a simulated target without a timing loop (see the module docstring)."""
    loop = TimingLoop(runner, None, None)
    loop.samples["solution"] = [loop.simulated_ms("solution", trial) for trial in solution_trials]
    median = statistics.median(loop.samples["solution"])  # the profile shown is that of a median trial
    loop.simulated["solution"] = min(solution_trials, key=lambda trial: abs(trial["runtime_ms"] - median))
    inputs, _ = runner.inputs(runner.base_seed + 1000)
    with torch.no_grad():
        _, reference = runner.hooks.reference_call(runner.reference, inputs)
    loop.samples["reference"] = [loop.simulated_ms("reference", reference)]
    return loop.summary()


def _iqr(samples: list[float]) -> float:
    if len(samples) < 4:
        return max(samples) - min(samples) if samples else 0.0
    quartiles = statistics.quantiles(samples, n=4)
    return quartiles[2] - quartiles[0]
