"""Suite metrics: compile rate, correctness, fast_p (KernelBench) and geometric-mean speedup."""

from __future__ import annotations

import math
from collections import Counter
from typing import Iterable, Sequence

from benchmarks.kernels.verifier.result import KernelResult

FAST_P_THRESHOLDS = (0.0, 1.0, 1.5, 2.0)


def fast_p(results: Sequence[KernelResult], p: float) -> float:
    """Fraction of solutions that are correct and faster than ``p`` times the reference.

    ``fast_0`` is the correctness rate; a correct solution that was not timed counts only there.
    """
    if not results:
        return 0.0
    hits = [r for r in results if r.correct and (p == 0.0 or (r.speedup is not None and r.speedup > p))]
    return len(hits) / len(results)


def geomean(values: Iterable[float]) -> float | None:
    """Geometric mean of positive values, or None when there are none."""
    logs = [math.log(v) for v in values if v and v > 0]
    return math.exp(sum(logs) / len(logs)) if logs else None


def summarize(results: Sequence[KernelResult]) -> dict:
    """The summary block of ``agent bench kernels``.

    compile_rate: share of solutions that passed the static checks and built; correctness: share
    that passed every trial; fast_p: see :func:`fast_p`; geomean_speedup: over the timed correct ones.
    """
    total = len(results)
    speedups = [r.speedup for r in results if r.speedup is not None]
    return {
        "solutions": total,
        "compile_rate": _rate(sum(r.compiled for r in results), total),
        "correctness": _rate(sum(r.correct for r in results), total),
        "fast_p": {f"fast_{p:g}": round(fast_p(results, p), 4) for p in FAST_P_THRESHOLDS},
        "geomean_speedup": _round(geomean(speedups)),
        "timed": len(speedups),
        "flagged_for_review": sum(bool(r.flags) for r in results),
        "statuses": dict(sorted(Counter(r.status.value for r in results).items())),
    }


def _rate(count: int, total: int) -> float:
    return round(count / total, 4) if total else 0.0


def _round(value: float | None) -> float | None:
    return None if value is None else round(value, 4)
