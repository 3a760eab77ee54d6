"""Flags that `agent bench kernels` and `agent run evokernel` share: KernelBench shape scaling and the
sandbox's memory and time limits for each verification."""

from __future__ import annotations

from typing import Annotated, Any, Callable, Optional, TypeVar

import typer
from pydantic import ValidationError

from sandboxes.errors import UserError

ShapeScaleOption = Annotated[Optional[float], typer.Option(
    "--shape-scale", help="Multiply each task's input size constants (batch_size, dim, ...) by this factor, "
                          "e.g. 0.1 for KernelBench files; the report says what was scaled.")]
MaxInputOption = Annotated[Optional[float], typer.Option(
    "--max-input-mb", help="Shrink each task's size constants until its inputs fit in this many MiB.")]
MemoryMbOption = Annotated[Optional[int], typer.Option(
    "--memory-mb", help="Memory limit of the sandbox for one verification (default 6144).")]
TimeoutOption = Annotated[Optional[float], typer.Option(
    "--timeout", help="Wall-clock seconds the sandbox allows one verification (default 300).")]


def sandbox_limits(memory_mb: int | None, timeout: float | None) -> dict[str, Any]:
    """The ``EvalConfig`` fields the two limit flags set (only those given)."""
    limits = {"memory_mb": memory_mb, "timeout_s": timeout}
    return {key: value for key, value in limits.items() if value is not None}


def kernel_flags(shape_scale: float | None, max_input_mb: float | None, memory_mb: int | None,
                 timeout: float | None) -> dict[str, Any]:
    """The ``shapes`` and ``evaluation`` settings of an agent config the four flags give (None: not given)."""
    shapes = {key: value for key, value in {"scale": shape_scale, "max_input_mb": max_input_mb}.items()
              if value is not None}
    limits = sandbox_limits(memory_mb, timeout)
    return {"shapes": shapes or None, "evaluation": limits or None}


FLAGS = {"scale": "--shape-scale", "max_input_mb": "--max-input-mb", "memory_mb": "--memory-mb",
         "timeout_s": "--timeout", "timing_budget_s": "--timing-budget", "trials": "--trials", "threads": "--threads",
         "range_check": "--range-check"}
"""The flag that sets each field of ``ShapeScaling`` and ``EvalConfig``."""
Built = TypeVar("Built")


def from_flags(build: Callable[[], Built]) -> Built:
    """``build()`` (a config made from flag values); a value it refuses is a one-line error naming the flag, not a
    traceback."""
    try:
        return build()
    except ValidationError as error:
        first = error.errors()[0]
        field = str(first["loc"][-1]) if first["loc"] else "?"
        raise UserError(f"invalid {FLAGS.get(field, field)}: {first['msg']}") from None
