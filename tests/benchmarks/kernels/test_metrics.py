"""compile rate, correctness, fast_p and geometric-mean speedup."""

import pytest

from benchmarks.kernels.metrics import fast_p, geomean, summarize
from benchmarks.kernels.verifier.result import KernelResult, Status


def results():
    return [
        KernelResult("a", Status.CORRECT, runtime_ms=1.0, reference_ms=3.0, compiled=True),   # 3x
        KernelResult("b", Status.CORRECT, runtime_ms=2.0, reference_ms=2.4, compiled=True),   # 1.2x
        KernelResult("c", Status.CORRECT, runtime_ms=4.0, reference_ms=2.0, compiled=True),   # 0.5x
        KernelResult("d", Status.INCORRECT, compiled=True),
        KernelResult("e", Status.COMPILE_ERROR),
    ]


def test_fast_p_thresholds():
    rs = results()
    assert fast_p(rs, 0.0) == pytest.approx(3 / 5)
    assert fast_p(rs, 1.0) == pytest.approx(2 / 5)
    assert fast_p(rs, 1.5) == pytest.approx(1 / 5)
    assert fast_p(rs, 2.0) == pytest.approx(1 / 5)
    assert fast_p([], 1.0) == 0.0


def test_summary():
    summary = summarize(results())
    assert summary["compile_rate"] == 0.8 and summary["correctness"] == 0.6
    assert summary["fast_p"] == {"fast_0": 0.6, "fast_1": 0.4, "fast_1.5": 0.2, "fast_2": 0.2}
    assert summary["geomean_speedup"] == pytest.approx((3 * 1.2 * 0.5) ** (1 / 3), abs=1e-4)
    assert summary["statuses"] == {"compile_error": 1, "correct": 3, "incorrect": 1}


def test_geomean_of_nothing_is_none():
    assert geomean([]) is None
