"""Output comparison with tolerances by dtype, and feedback that says where and by how much."""

from __future__ import annotations

from typing import Any

import torch

TOLERANCES = {
    torch.float64: (1e-7, 1e-7), torch.float32: (1e-3, 1e-3), torch.float16: (1e-2, 1e-2),
    torch.bfloat16: (2e-2, 2e-2),
}
"""(atol, rtol) per floating dtype; integer and bool outputs must match exactly."""


def tolerance(dtype: torch.dtype, task_module: Any = None) -> tuple[float, float]:
    """(atol, rtol) for ``dtype``; a task may override with module constants ATOL and RTOL."""
    atol, rtol = TOLERANCES.get(dtype, (0.0, 0.0))
    if task_module is not None:
        atol = float(getattr(task_module, "ATOL", atol))
        rtol = float(getattr(task_module, "RTOL", rtol))
    return atol, rtol


def mismatch(output: torch.Tensor, expected: torch.Tensor, atol: float, rtol: float) -> str:
    """'' when ``output`` matches ``expected``; otherwise a short description of the difference."""
    if output.shape != expected.shape:
        return f"output shape {tuple(output.shape)} != expected {tuple(expected.shape)}"
    if output.dtype != expected.dtype:
        return f"output dtype {output.dtype} != expected {expected.dtype}"
    if not expected.is_floating_point():
        bad = output != expected
    else:
        bad = ~torch.isclose(output, expected, atol=atol, rtol=rtol, equal_nan=True)
    count = int(bad.sum())
    if count == 0:
        return ""
    first = tuple(int(i) for i in torch.nonzero(bad)[0]) if output.dim() else ()
    diff = (output.double() - expected.double()).abs()
    worst = float(torch.nan_to_num(diff, nan=float("inf")).max())
    return (f"{count} of {expected.numel()} elements differ (atol={atol:g}, rtol={rtol:g}); max abs diff "
            f"{worst:.4g}; first at index {first}: got {float(output[first]):.6g}, expected {float(expected[first]):.6g}")
