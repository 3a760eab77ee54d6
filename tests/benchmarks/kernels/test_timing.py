"""Timing summaries: medians, spread and the review flag for implausible speedups."""

import types

from benchmarks.kernels.runner.timing import TimingLoop, _iqr


def loop_with(solution, reference):
    runner = types.SimpleNamespace(config={"timing": "wall"})
    loop = TimingLoop(runner, solution=None, reference=None)
    loop.samples = {"solution": solution, "reference": reference}
    return loop


def test_median_and_spread():
    fields = loop_with([1.0, 2.0, 3.0, 4.0, 100.0], [5.0] * 5).summary()
    assert fields["runtime_ms"] == 3.0 and fields["reference_ms"] == 5.0 and fields["timed_trials"] == 5
    assert fields["runtime_spread_ms"] == _iqr([1.0, 2.0, 3.0, 4.0, 100.0]) and fields["flags"] == []


def test_speedup_over_ten_is_flagged_for_review():
    fields = loop_with([1.0] * 4, [11.0] * 4).summary()
    assert fields["flags"] == ["speedup>10x: review"]


def test_iqr_of_few_samples_is_the_range():
    assert _iqr([2.0, 5.0]) == 3.0 and _iqr([]) == 0.0
