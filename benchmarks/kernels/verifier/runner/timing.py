"""Timing in the trusted runner: warm-up and timed rounds of solution and reference, every output checked.

Every round (warm-up rounds too) gets a fresh input set, generated here from a fresh seed outside the
clock and copied into both workers' regions. The runner's own ``perf_counter`` brackets one ``run``
round trip per side, alternating which side goes first. After the clock stops, the reference worker's
output for that round is the expected value and the solution's output goes through every check of
:class:`OutputChecks` (tolerance, cache, mutation, aliasing, precision bound): a kernel that is correct
only when it is not being timed, or that keeps state between calls, is caught on the first call where
it differs, with no sampling. Two traced calls at secret positions among the timed ones put the dispatch
tripwire, which the correctness trials run under, on the timed phase too. On a device-timed target the
worker's event time is used, and flagged when it exceeds the runner's wall time. A speedup above the review threshold is measured again on new
input sets before it counts; the second measurement is the one reported.

``timing_checks = "legacy_sampled"`` runs the first edition's loop instead (two fixed input sets, three
randomly chosen re-checks, no precision bound): it can be fooled, and exists only so that
``agent bench verifier`` can measure the price of the checks above against it in the same run.

Simulated times depend on shapes, not on the clock, so a simulated target skips the loop
(:func:`simulated_timing`): the solution's times are those of its correctness trials, whose outputs
were all checked, and the reference's comes from the hooks' baseline run here in the runner.
"""

from __future__ import annotations

import contextlib
import secrets
import statistics
import time
from typing import TYPE_CHECKING, Any

from benchmarks.kernels.verifier.runner.calls import Batch, Side
from benchmarks.kernels.verifier.runner.cpu_account import CpuAccount, off_the_clock
from benchmarks.kernels.verifier.runner.verdict import Verdict

if TYPE_CHECKING:
    from benchmarks.kernels.verifier.runner.trusted import Runner

_perf_counter = time.perf_counter
PROBES = 2
"""Traced, untimed calls of the solution hidden among its timed ones (see :meth:`TimingLoop.probe`)."""
LEGACY_SETS = 2
LEGACY_RECHECKS = 3
SPEEDUP_REVIEW = 10.0
ROOFLINE_REVIEW = 1.001
"""A simulated kernel above this fraction of its roofline (compulsory GM bytes and FLOPs) is flagged: an honest
kernel gets there only by not reading inputs it was given; one that escaped the simulator's accounting does too."""


class TimingLoop:
    """Measures solution and reference under identical conditions."""

    def __init__(self, runner: "Runner", solution: Side | None, reference: Side | None) -> None:
        self.runner = runner
        self.config = runner.config
        self.sides = {"solution": solution, "reference": reference}
        self.samples: dict[str, list[float]] = {"solution": [], "reference": []}
        self.simulated: dict[str, dict[str, Any]] = {}
        self.flags: list[str] = []
        self.legacy = self.config.get("timing_checks") == "legacy_sampled"
        self._legacy_sets: list[tuple[Batch, Any]] = []
        self._rechecks: set[int] = set()
        self.outside_ms: dict[str, float | None] = {}
        """Each worker's CPU outside its calls over the last timed rounds (see :mod:`.cpu_account`)."""

    def trial(self, side: str, what: str) -> float:
        """One call of ``side`` in ms, by the clock this target trusts."""
        reply, wall_ms = self.sides[side].call(what)
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
            raise Verdict("crashed", f"{side}: simulated target returned no runtime_ms", stage="timing")
        self.simulated[side] = simulated
        return float(simulated["runtime_ms"])

    def round(self, index: int, timed: bool) -> None:
        """Fresh inputs to both sides, one call each (recorded when ``timed``), then the solution's output checked."""
        what = f"{'timed call' if timed else 'warm-up call'} {index + 1}"
        batch, expected = self._inputs(index)
        for side in self.sides.values():
            side.feed(batch, what)
        order = ("solution", "reference") if index % 2 == 0 else ("reference", "solution")
        for side in order:
            elapsed = self.trial(side, what)
            if timed:
                self.samples[side].append(elapsed)
        if self.legacy and not (timed and index in self._rechecks):
            return
        if expected is None:
            expected = self.sides["reference"].collect(what, snapshot=False).tensor  # trusted, used at once
        self._check(batch, expected, what)

    def probe(self, index: int) -> None:
        """An untimed call of the solution under the tripwire, on fresh inputs, checked like a correctness trial, at a
        position among the timed calls that the solution cannot know: framework compute that a kernel does only
        once its traced correctness calls are over (it counts calls) is caught here."""
        what = f"a traced call before timed call {index + 1}"
        batch = self.runner.batch()
        expected = self.runner.expected(batch)
        solution = self.sides["solution"]
        solution.feed(batch, what)
        with solution.account.call() if solution.account else contextlib.nullcontext():  # own state, tripwire
            solution.call(what, trace=True)
            self._check(batch, expected, what, state=True)

    def _inputs(self, index: int) -> tuple[Batch, Any]:
        """A fresh batch (its expected value comes from the reference worker), or a legacy fixed set."""
        if not self.legacy:
            return self.runner.batch(), None
        if not self._legacy_sets:
            self._legacy_sets = [(batch, self.runner.expected(batch)) for batch in
                                 (self.runner.batch() for _ in range(LEGACY_SETS))]
        return self._legacy_sets[index % LEGACY_SETS]

    def _check(self, batch: Batch, expected: Any, what: str, state: bool = False) -> None:
        """The solution's output against ``expected``; ``state``: its own tensors too (the probes' and the
        correctness trials' job: in a timed round the hand-over stays the same work as the reference's)."""
        side, checks = self.sides["solution"], self.runner.checks
        output = side.collect(what, state=state)
        detail = f"{what} (fresh inputs, checked after the clock stopped)"
        try:
            comparison = checks.judge(side, batch, output, expected, detail, stage="timing")
        except Verdict as verdict:
            if verdict.status == "incorrect":
                verdict.reason += ("; it passed its correctness trials, so it is only correct outside the timed "
                                   "loop, or keeps state between calls")
            raise
        if not self.legacy:
            checks.precise_later(comparison, detail)

    def sample(self) -> dict[str, Any]:
        """Warm up, run timed rounds until enough samples and time, return the timing fields."""
        self.samples = {"solution": [], "reference": []}
        for index in range(int(self.config["warmup"])):
            self.round(index, timed=False)
        max_trials, min_trials = int(self.config["timed_trials"]), int(self.config["min_timed_trials"])
        if self.legacy:
            chosen = secrets.SystemRandom().sample(range(min_trials), min(LEGACY_RECHECKS, min_trials))
            self._rechecks = set(chosen)
        probes = set(secrets.SystemRandom().sample(range(min_trials), min(PROBES, min_trials)))
        self._open_accounts()
        started = _perf_counter()
        for trial in range(max_trials):
            if trial in probes and not self.legacy:
                self.probe(trial)
            self.round(trial, timed=True)
            if trial + 1 >= min_trials and _perf_counter() - started > float(self.config["timing_budget_s"]):
                break
        self._close_accounts(len(self.samples["solution"]))
        return self.summary()

    def _open_accounts(self) -> None:
        """Count each worker's CPU outside its calls over the timed rounds, where the wall clock times a host device
        at one thread (a GPU's runtime works beside its calls by design, and OpenMP's idle threads spin between
        calls: 500 to 700 ms over the rounds at ``--threads 2``, within 0.73 to 1.23x of the reference's)."""
        if self.config["timing"] == "wall" and not self.legacy and int(self.config.get("threads", 1)) == 1:
            for side in self.sides.values():
                side.account = CpuAccount(side.worker.pid)

    def _close_accounts(self, rounds: int) -> None:
        """Refuse a solution whose worker did its work off the clock (see :mod:`.cpu_account`)."""
        solution, reference = self.sides["solution"], self.sides["reference"]
        if solution.account is None or reference.account is None:
            return
        direct = solution.reads_output and not reference.reads_output  # only the reference copied its output
        spent = {"solution": solution.account.outside_ms(), "reference": reference.account.outside_ms(direct)}
        for side in self.sides.values():
            side.account = None
        self.outside_ms = spent
        reason = off_the_clock(spent["solution"], spent["reference"], rounds)
        if reason:
            raise Verdict("rejected", reason, stage="timing")

    def measure(self) -> dict[str, Any]:
        """:meth:`sample`, and once more on new inputs when the speedup is over the review threshold."""
        fields = self.sample()
        if self.legacy or fields["runtime_ms"] <= 0 or fields["reference_ms"] / fields["runtime_ms"] <= SPEEDUP_REVIEW:
            return fields
        first = fields["reference_ms"] / fields["runtime_ms"]
        fields = self.sample()
        fields["flags"].append("re-measured")
        fields["extras"]["first_speedup"] = round(first, 3)
        return fields

    def summary(self) -> dict[str, Any]:
        """Median and inter-quartile range of each side, flags and simulated extras."""
        solution, reference = self.samples["solution"], self.samples["reference"]
        flags = [flag for flag in self.flags if not flag.startswith("speedup>")]
        fields: dict[str, Any] = {
            "runtime_ms": statistics.median(solution), "reference_ms": statistics.median(reference),
            "runtime_spread_ms": _iqr(solution), "reference_spread_ms": _iqr(reference),
            "timed_trials": len(solution), "flags": flags,
        }
        if fields["runtime_ms"] > 0 and fields["reference_ms"] / fields["runtime_ms"] > SPEEDUP_REVIEW:
            flags.append(f"speedup>{SPEEDUP_REVIEW:g}x: review")
        if float(self.simulated.get("solution", {}).get("roofline_fraction") or 0.0) > ROOFLINE_REVIEW:
            flags.append("faster than the simulated roofline: review")
        extras = {k: v for k, v in self.simulated.get("solution", {}).items() if k != "runtime_ms"}
        extras.update({f"reference_{k}": v for k, v in self.simulated.get("reference", {}).items()
                       if k in ("cycles",)})
        if self.outside_ms:
            extras["cpu_outside_calls_ms"] = {name: None if ms is None else round(ms, 2)
                                              for name, ms in self.outside_ms.items()}
        fields["extras"] = extras
        return fields


def simulated_timing(runner: "Runner", solution_trials: list[dict[str, Any] | None]) -> dict[str, Any]:
    """Timing fields of a simulated target without a timing loop (see the module docstring)."""
    import torch

    loop = TimingLoop(runner, None, None)
    loop.samples["solution"] = [loop.simulated_ms("solution", trial) for trial in solution_trials]
    median = statistics.median(loop.samples["solution"])  # the profile shown is that of a median trial
    loop.simulated["solution"] = min(solution_trials, key=lambda trial: abs(trial["runtime_ms"] - median))
    inputs = runner.last_batch.fresh_inputs()  # the runner's own inputs from a secret seed, like a new set would be
    with torch.no_grad():
        _, reference = runner.hooks.reference_call(runner.reference, inputs)
    loop.samples["reference"] = [loop.simulated_ms("reference", reference)]
    return loop.summary()


def _iqr(samples: list[float]) -> float:
    if len(samples) < 4:
        return max(samples) - min(samples) if samples else 0.0
    quartiles = statistics.quantiles(samples, n=4)
    return quartiles[2] - quartiles[0]
