"""The checks every output of the solution goes through, on the correctness trials and on every timed
call alike; each failure is a Verdict naming its stage.

In order: the inputs' bytes in the shared region (input mutation), the output's storage (a view of an
input), the tripwire's evidence (framework compute during forward), the values within tolerance (and, on
a miss, whether the output merely repeats the previous call's: a cache), then the precision bound.
"""

from __future__ import annotations

from typing import Any

import torch

from benchmarks.kernels.verifier.runner.calls import Batch, Output, Side
from benchmarks.kernels.verifier.runner.compare import Comparison, compare, range_comparison, tolerance
from benchmarks.kernels.verifier.runner.inputs import stride_order
from benchmarks.kernels.verifier.runner.precision import PrecisionCheck
from benchmarks.kernels.verifier.runner.tripwire import describe
from benchmarks.kernels.verifier.runner.verdict import Verdict

TRIPWIRE_MODES = ("refuse", "flag", "off")


class OutputChecks:
    """Judges the solution's outputs against the expected ones; remembers the previous call for the cache test."""

    def __init__(self, task: Any, precision: PrecisionCheck, tripwire: str, flags: list[str]) -> None:
        self.task = task
        self.precision = precision
        self.tripwire = tripwire
        self.flags = flags
        self.allow_overlap = False
        """True when the task's own reference returns a view of its input (then a view is what it asks for)."""
        self.checked = 0
        self.tripwire_report: dict[str, Any] | None = None
        self._previous: tuple[torch.Tensor, torch.Tensor] | None = None

    def judge(self, side: Side, batch: Batch, output: Output, expected: torch.Tensor, what: str,
              stage: str, scaled: bool = False) -> Comparison:
        """Every check on one output; the comparison when it passes, a Verdict when it does not. ``scaled``: a
        range trial, whose values are judged by :func:`range_comparison` instead of the elementwise tolerance."""
        self._inputs_unchanged(side, batch, what)
        if output.overlap is not None and not self.allow_overlap:
            raise Verdict("rejected", f"{what}: the output's storage overlaps input {output.overlap} (a view of "
                                      "the input, e.g. x.T, expand or as_strided); the task asks for a new tensor",
                          stage="output")
        self._tripwire(output.tripwire)
        self._layout(output, expected, what)
        comparison = (range_comparison(output.tensor, expected) if scaled
                      else compare(output.tensor, expected, *tolerance(expected.dtype, self.task)))
        if comparison.problem and self._repeats(output.tensor, expected):
            status = "incorrect" if stage == "timing" else "rejected"  # a timed miss is incorrect, whatever its cause
            raise Verdict(status, f"{what}: the output is identical to the previous call's although the inputs "
                                  f"changed (a cached result kept between calls): {comparison.problem}", stage=stage)
        if comparison.problem:
            raise Verdict("incorrect", f"{what}: {comparison.problem}", stage=stage)
        self._previous = (output.tensor, expected)
        self.checked += 1
        return comparison

    def precise_trial(self, batch: Batch, expected: torch.Tensor, output: Output, what: str) -> None:
        """The float64 precision check of a correctness trial."""
        problem = self.precision.trial(batch.values, expected, output.tensor)
        if problem:
            raise Verdict("incorrect", f"{what}: {problem}", stage="precision")

    def precise_later(self, comparison: Comparison, what: str) -> None:
        """After the float64 trials: the output's error against the float32 reference must stay within the
        bound those trials set (every later correctness trial and every timed call)."""
        bound = self.precision.timed_bound()
        if bound is not None and comparison.relative_error() > bound:
            eps = self.precision.eps
            raise Verdict("incorrect", f"{what}: relative error {comparison.relative_error() / eps:.3g} eps against "
                                       f"the reference, above the {bound / eps:.3g} eps its float64-checked trials "
                                       "allow: the kernel computes in lower precision on some calls", stage="precision")

    def _layout(self, output: Output, expected: torch.Tensor, what: str) -> None:
        """The output's memory in row-major order, or in the reference output's own: a kernel that wrote a
        permuted layout (transposed strides, channels-last) and returned it left the reordering copy to the
        worker's untimed hand-over."""
        order = output.order
        if order is not None and order != sorted(order) and order != stride_order(expected):
            raise Verdict("rejected", f"{what}: the output's memory is not in row-major order (its dims by stride: "
                                      f"{order}), unlike the reference's: the copy that reorders it would run outside "
                                      "the timed call; return a contiguous tensor", stage="output")

    def _inputs_unchanged(self, side: Side, batch: Batch, what: str) -> None:
        changed = side.mutated(batch)
        if changed:
            raise Verdict("rejected", f"forward modified its input(s) {changed} in place ({what}); inputs must be "
                                      "left unchanged", stage="mutation")

    def _tripwire(self, report: dict[str, Any] | None) -> None:
        if report is None or self.tripwire == "off":
            return
        self.tripwire_report = report
        found = describe(report)
        if not found:
            return
        if self.tripwire == "refuse":
            raise Verdict("rejected", f"the runtime tripwire saw torch compute run by the solution during forward: "
                                      f"{found}; forward may only allocate, view, copy and call your own kernels",
                          stage="tripwire")
        if "tripwire" not in self.flags:
            self.flags.append("tripwire")

    def _repeats(self, output: torch.Tensor, expected: torch.Tensor) -> bool:
        """True when the output repeats the previous call's exactly while the expected value changed."""
        previous = self._previous
        if previous is None or previous[0].shape != output.shape or previous[0].dtype != output.dtype:
            return False
        return bool(torch.equal(previous[0], output)) and not torch.equal(previous[1], expected)
