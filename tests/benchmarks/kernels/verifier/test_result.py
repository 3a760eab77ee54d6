"""KernelResult rows."""

from benchmarks.kernels.verifier.result import KernelResult, Status


def test_speedup_only_for_correct_timed_results():
    assert KernelResult("t", Status.CORRECT, runtime_ms=2.0, reference_ms=5.0).speedup == 2.5
    assert KernelResult("t", Status.CORRECT, reference_ms=5.0).speedup is None
    assert KernelResult("t", Status.INCORRECT, runtime_ms=2.0, reference_ms=5.0).speedup is None


def test_row_has_the_harness_fields_and_target_extras():
    row = KernelResult("L1/relu", Status.CORRECT, runtime_ms=1.0, reference_ms=2.0, flags=["speedup>10x: review"],
                       extras={"simulated": True, "cycles": 1200}).to_row()
    assert list(row)[:7] == ["task", "status", "correct", "reason", "speedup", "runtime_ms", "reference_ms"]
    assert row["status"] == "correct" and row["correct"] is True and row["speedup"] == 2.0
    assert row["cycles"] == 1200 and row["simulated"] is True and row["flags"] == "speedup>10x: review"
