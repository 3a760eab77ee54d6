"""The record of one heuristic's evaluation: a score, or a clear failure that a critic can read."""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any

FAILURE_KINDS = ("crash", "timeout", "memory", "invalid_return", "illegal_solution", "nan")


@dataclass
class Evaluation:
    """``score`` is the mean gap in percent over the split's instance sets (lower is better)."""

    code_hash: str
    ok: bool
    score: float | None = None
    gaps: dict[str, float] = field(default_factory=dict)
    gap_errors: dict[str, float] = field(default_factory=dict)
    """Standard error of each set's gap (sampling noise over its instances)."""
    objectives: dict[str, list[float]] = field(default_factory=dict)
    """Each set's objective per instance (bins, tour length, value), for paired comparisons."""
    failure: str | None = None
    message: str = ""
    seconds: float = 0.0
    cached: bool = False

    @classmethod
    def failed(cls, code_hash: str, kind: str, message: str, seconds: float = 0.0) -> "Evaluation":
        assert kind in FAILURE_KINDS, kind
        return cls(code_hash, False, failure=kind, message=message[-1500:], seconds=seconds)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Evaluation":
        return cls(**data)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def fitness(self) -> float:
        """The score, or +inf for a failure, so that sorting puts failures last."""
        return self.score if self.ok and self.score is not None else math.inf

    def summary(self) -> str:
        """One line for prompts and logs."""
        if self.ok:
            return f"gap {self.score:.3f}%"
        return f"FAILED ({self.failure}): {self.message.strip().splitlines()[-1] if self.message else ''}"
