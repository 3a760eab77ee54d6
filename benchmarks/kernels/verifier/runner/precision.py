"""The precision check: is the solution's error far above what the reference's own arithmetic makes?

On the first correctness trials (:data:`FLOAT64_TRIALS`) the runner computes the reference once more in float64 (a copy of the model
and of the inputs, default dtype float64 while it runs) and measures two relative L1 errors against it:
the reference's own (its float32 computation) and the solution's. The solution fails when its error
exceeds ``max(RATIO * reference error, FLOOR * eps)`` (eps of the output dtype). KernelBench refuses
FP32 -> FP16 downgrades by matching source patterns (``.half()``, ``__half``...); this check measures
the numbers instead, so it catches a downgrade however it is written (fp16 intermediates in C++, a
bf16 accumulator in Triton). Every later output (the other correctness trials, every timed call) is
compared with the float32 reference only; the triangle inequality gives its bound: the trial bound plus
twice the largest reference error seen.

RATIO and FLOOR were calibrated on the reference solutions of builtin L1/L2 for cpu and npu and on
deliberately downgraded variants (see ``agent bench verifier --precision``).
"""

from __future__ import annotations

import copy
from typing import Any, Callable

import torch

from benchmarks.kernels.verifier.runner.compare import relative_errors

FLOAT64_TRIALS = 2
"""Correctness trials that also run the float64 reference (the others, and every timed call, keep its bound)."""
RATIO = 64.0
"""How many times the reference's own float32 error a solution may make."""
FLOOR = 256.0
"""Errors below this many eps of the output dtype always pass (exactly rounded references have error 0)."""


class PrecisionCheck:
    """Float64 reference, per-trial errors, and the bound the timed calls must keep."""

    def __init__(self, reference: Any, enabled: bool, to_device: Callable[[Any], Any] = lambda value: value) -> None:
        self.reference64, self.skipped = None, "" if enabled else "turned off"
        self.to_device = to_device
        """Moves the float64 inputs to the reference's device (the target hooks' ``to_device``)."""
        if enabled:
            try:
                self.reference64 = copy.deepcopy(reference).double()
            except Exception as error:  # a model that cannot be copied or cast: no float64 reference
                self.skipped = f"no float64 reference: {type(error).__name__}: {error}"
        self.reference_errors: list[float] = []
        self.solution_errors: list[float] = []
        self.eps = 0.0

    def trial(self, inputs: list[Any], expected: torch.Tensor, output: torch.Tensor) -> str:
        """The problem with ``output`` on this trial ('' when its precision is fine or the check is skipped)."""
        if not expected.is_floating_point():
            self.skipped = "integer output: compared exactly"
        if self.skipped:
            return ""
        truth = self._float64(inputs)
        if truth is None or truth.shape != expected.shape:
            return ""
        self.eps = float(torch.finfo(expected.dtype).eps)
        reference, solution = relative_errors(truth, expected, output)
        self.reference_errors.append(reference)
        self.solution_errors.append(solution)
        bound = self.bound(reference)
        if solution <= bound:
            return ""
        return (f"relative error {solution / self.eps:.3g} eps against a float64 reference, where the task's own "
                f"float32 computation makes {reference / self.eps:.3g} eps (at most {bound / self.eps:.3g} eps "
                f"allowed): the kernel computes in lower precision than the task (e.g. fp16/bf16 intermediates)")

    def bound(self, reference_error: float) -> float:
        """The largest relative error a solution may make, given the reference's own."""
        return max(RATIO * reference_error, FLOOR * self.eps)

    def timed_bound(self) -> float | None:
        """The bound for a timed output compared with the float32 reference (None: no trial measured one)."""
        if not self.reference_errors:
            return None
        largest = max(self.reference_errors)
        return self.bound(largest) + 2 * largest

    def evidence(self) -> dict[str, Any]:
        """Errors in eps of the output dtype, for the verdict."""
        if self.skipped or not self.reference_errors:
            return {"skipped": self.skipped or "no trial got as far as the precision check"}
        return {"reference_eps": round(max(self.reference_errors) / self.eps, 3),
                "solution_eps": round(max(self.solution_errors) / self.eps, 3),
                "bound_eps": round(self.bound(max(self.reference_errors)) / self.eps, 3)}

    def _float64(self, inputs: list[Any]) -> torch.Tensor | None:
        wide = self.to_device([_widened(x) for x in inputs])
        previous = torch.get_default_dtype()
        torch.set_default_dtype(torch.float64)
        try:
            with torch.no_grad():
                truth = self.reference64(*wide)
        except Exception as error:
            self.skipped = f"the float64 reference failed: {type(error).__name__}: {error}"
            return None
        finally:
            torch.set_default_dtype(previous)
        return truth.double().cpu() if isinstance(truth, torch.Tensor) else None


def _widened(value: Any) -> Any:
    """A float64 copy of a floating tensor, a copy of any other tensor (the caller's stay untouched)."""
    if not isinstance(value, torch.Tensor):
        return value
    return value.double() if value.is_floating_point() else value.clone()
