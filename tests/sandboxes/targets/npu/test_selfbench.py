"""The simulator self-benchmark reports the timing model's ratios (all cycles simulated)."""

import pytest

from sandboxes.targets.npu.selfbench import run_selfbench


@pytest.mark.slow
def test_selfbench_ratios():
    summary, rows = run_selfbench()
    assert summary["simulated"] is True and all(row["simulated"] for row in rows)
    assert summary["double_over_single_buffering"] > 1.0
    assert summary["speedup_1_to_4_cores"] > 2.0
    assert summary["speedup_16_to_48_cores"] == pytest.approx(1.0, abs=0.05)
