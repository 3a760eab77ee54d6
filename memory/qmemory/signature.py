"""The state signature that keys Q-values: target, op family, stage, shape bucket and error category."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Sequence

ERROR_CATEGORIES = ("none", "parse_error", "rejected", "compile_error", "runtime_error", "incorrect", "timeout", "slow")


@dataclass(frozen=True)
class StateSignature:
    """A coarse description of where the agent is, shared by similar tasks so that Q-values transfer."""

    target: str
    op_family: str
    stage: str
    shape_bucket: str
    error_category: str = "none"

    def key(self) -> str:
        return "|".join((self.target, self.op_family, self.stage, self.shape_bucket, self.error_category))


def shape_bucket(shapes: Iterable[Sequence[int]]) -> str:
    """Bucket the largest tensor's element count by powers of four, e.g. ``2^20`` for 1M elements."""
    sizes = [math.prod(int(d) for d in shape) for shape in shapes]
    largest = max(sizes, default=0)
    if largest <= 1:
        return "2^0"
    return f"2^{2 * round(math.log2(largest) / 2)}"


def error_category(status: str | None) -> str:
    """Map a verifier status (or none yet) to one of ``ERROR_CATEGORIES``."""
    if not status or status in ("correct", "feasible", "ok"):
        return "none"
    aliases = {"crashed": "runtime_error", "runtime": "runtime_error", "error": "runtime_error",
               "compile": "compile_error", "malformed": "parse_error"}
    status = aliases.get(status, status)
    return status if status in ERROR_CATEGORIES else "runtime_error"
