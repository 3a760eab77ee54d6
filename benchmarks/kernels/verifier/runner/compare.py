"""Output comparison with tolerances by dtype, feedback that says where and by how much, and the
relative error that the precision check weighs.

:func:`compare` walks the tensors in cache-sized chunks and does the tolerance test and the error sum in
one pass; only a tensor that fails it (or holds NaN/Inf) goes through ``torch.isclose`` for the
message. Every timed output is compared, so this is on the verifier's hot path.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import torch

TOLERANCES = {
    torch.float64: (1e-7, 1e-7), torch.float32: (1e-3, 1e-3), torch.float16: (1e-2, 1e-2),
    torch.bfloat16: (2e-2, 2e-2),
}
"""(atol, rtol) per floating dtype; integer and bool outputs must match exactly."""
RANGE_SCALE = 32.0
"""The range trials' floating inputs are the task's own times this. ``get_inputs`` draws from one distribution
(mostly ``randn``), so a kernel right only near it would pass every other trial: a softmax without its max
subtraction never overflows ``exp`` on randn inputs, and does at 32 times them."""
RANGE_RELATIVE_L1 = 1e-3
"""The relative L1 error a range trial allows (about 8,000 float32 eps; honest float32 kernels make a few). The
elementwise tolerance is not used there: scaled inputs shrink atol relative to the outputs, so the rounding of an
honest reduction's near-zero sums would fail it."""
CHUNK = 1 << 16
"""Elements per chunk of the one-pass comparison (a few hundred KiB: stays in L2)."""


@dataclass
class Comparison:
    """What comparing an output with an expected tensor found."""

    problem: str
    """'' when the output matches within tolerance, else the feedback line."""
    error_sum: float = 0.0
    """Sum of |output - expected| (floating outputs; inf when a NaN or Inf disagrees)."""
    magnitude_sum: float = 0.0
    """Sum of |expected|."""

    def relative_error(self) -> float:
        """error_sum / magnitude_sum (0 for an all-zero match; inf when the expected is all zero and the
        output is not)."""
        return _ratio(self.error_sum, self.magnitude_sum)


def tolerance(dtype: torch.dtype, task_module: Any = None) -> tuple[float, float]:
    """(atol, rtol) for ``dtype``; a task may override with module constants ATOL and RTOL."""
    atol, rtol = TOLERANCES.get(dtype, (0.0, 0.0))
    if task_module is not None:
        atol = float(getattr(task_module, "ATOL", atol))
        rtol = float(getattr(task_module, "RTOL", rtol))
    return atol, rtol


def compare(output: torch.Tensor, expected: torch.Tensor, atol: float, rtol: float) -> Comparison:
    """Tolerance test and error sums of ``output`` against ``expected`` (same shape and dtype required)."""
    if output.shape != expected.shape:
        return Comparison(f"output shape {tuple(output.shape)} != expected {tuple(expected.shape)}")
    if output.dtype != expected.dtype:
        return Comparison(f"output dtype {output.dtype} != expected {expected.dtype}")
    if not expected.is_floating_point():
        return Comparison(_describe(output, expected, output != expected, atol, rtol))
    flat_out, flat_exp = output.reshape(-1), expected.reshape(-1)
    wide = torch.float64 if expected.dtype == torch.float64 else torch.float32
    error, magnitude, within = 0.0, 0.0, True
    for start in range(0, flat_exp.numel(), CHUNK):
        out, exp = flat_out[start:start + CHUNK].to(wide), flat_exp[start:start + CHUNK].to(wide)
        diff, size = torch.sub(out, exp).abs_(), exp.abs()
        error += float(diff.sum())
        magnitude += float(size.sum())
        within = within and float(diff.sub_(size.mul_(rtol).add_(atol)).max()) <= 0.0  # False for NaN
    if within:
        return Comparison("", error, magnitude)
    bad = ~torch.isclose(output, expected, atol=atol, rtol=rtol, equal_nan=True)
    if not bool(bad.any()):  # NaN/Inf in matching places: isclose accepts them
        finite = torch.isfinite(expected) & torch.isfinite(output)
        diff = (output[finite].double() - expected[finite].double()).abs()
        return Comparison("", float(diff.sum()), float(expected[finite].double().abs().sum()))
    return Comparison(_describe(output, expected, bad, atol, rtol), float("inf"), magnitude)


def range_comparison(output: torch.Tensor, expected: torch.Tensor) -> Comparison:
    """The range trial's test: same shape and dtype, the same integers, and floating outputs finite where the
    expected ones are, within :data:`RANGE_RELATIVE_L1` of them."""
    if output.shape != expected.shape or output.dtype != expected.dtype or not expected.is_floating_point():
        return compare(output, expected, 0.0, 0.0)
    (error,) = relative_errors(expected, output)
    if error <= RANGE_RELATIVE_L1:
        return Comparison("")
    found = ("the output is not finite where the reference is" if error == float("inf")
             else f"the output's relative L1 error is {error:.3g} (at most {RANGE_RELATIVE_L1:g} allowed)")
    return Comparison(f"{found}: the kernel is right only for inputs near the task's usual ones (e.g. exp without "
                      "subtracting the maximum, or -ffast-math's exp past its range)", float("inf"))


def relative_errors(truth: torch.Tensor, *tensors: torch.Tensor) -> list[float]:
    """For each tensor, sum |tensor - truth| / sum |truth| in float64 over the places where ``truth`` is
    finite (inf when the tensor is not finite there; 0 for an exact all-zero match), in one pass."""
    exact, flats = truth.reshape(-1), [t.reshape(-1) for t in tensors]
    errors, magnitude = [0.0] * len(tensors), 0.0
    for start in range(0, exact.numel(), CHUNK):
        true = exact[start:start + CHUNK].double()
        keep = None if bool(torch.isfinite(true).all()) else torch.isfinite(true)
        true = true if keep is None else true[keep]
        magnitude += float(true.abs().sum())
        for index, flat in enumerate(flats):
            piece = flat[start:start + CHUNK].double()
            errors[index] += float(torch.sub(piece if keep is None else piece[keep], true).abs_().sum())
    return [_ratio(error, magnitude) for error in errors]


def _ratio(error: float, magnitude: float) -> float:
    if error != error:  # NaN where the truth is finite
        return float("inf")
    if error == 0.0:
        return 0.0
    return error / magnitude if magnitude > 0 else float("inf")


def mismatch(output: torch.Tensor, expected: torch.Tensor, atol: float, rtol: float) -> str:
    """'' when ``output`` matches ``expected``; otherwise a short description of the difference."""
    return compare(output, expected, atol, rtol).problem


def _describe(output: torch.Tensor, expected: torch.Tensor, bad: torch.Tensor, atol: float, rtol: float) -> str:
    count = int(bad.sum())
    if count == 0:
        return ""
    first = tuple(int(i) for i in torch.nonzero(bad)[0]) if output.dim() else ()
    diff = (output.double() - expected.double()).abs()
    worst = float(torch.nan_to_num(diff, nan=float("inf")).max())
    return (f"{count} of {expected.numel()} elements differ (atol={atol:g}, rtol={rtol:g}); max abs diff "
            f"{worst:.4g}; first at index {first}: got {float(output[first]):.6g}, expected {float(expected[first]):.6g}")
