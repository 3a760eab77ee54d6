"""Timing summaries: medians, spread and the review flag for implausible speedups."""

import types

from benchmarks.kernels.verifier.runner.timing import TimingLoop, _iqr


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


class FakeHooks:
    """Stands in for a simulated target's hooks: the baseline takes 8 simulated ms."""

    def reference_call(self, model, inputs):
        return model(*inputs), {"runtime_ms": 8.0, "cycles": 800}


def simulated_runner():
    import torch

    batch = types.SimpleNamespace(fresh_inputs=lambda: [torch.full((2,), 7.0)])
    return types.SimpleNamespace(config={"timing": "simulated"}, hooks=FakeHooks(), reference=lambda x: x + 1,
                                 batch=lambda: batch)


def test_simulated_timing_uses_the_checked_trials_and_the_runner_side_baseline():
    from benchmarks.kernels.verifier.runner.timing import simulated_timing

    trials = [{"runtime_ms": 2.0, "cycles": 200, "bottleneck": "VEC"}] * 4 + [{"runtime_ms": 4.0, "cycles": 400}]
    fields = simulated_timing(simulated_runner(), trials)
    assert fields["runtime_ms"] == 2.0 and fields["reference_ms"] == 8.0 and fields["timed_trials"] == 5
    assert fields["extras"] == {"cycles": 200, "bottleneck": "VEC", "reference_cycles": 800}


def test_simulated_timing_without_runtime_is_a_crash():
    import pytest

    from benchmarks.kernels.verifier.runner.timing import simulated_timing
    from benchmarks.kernels.verifier.runner.verdict import Verdict

    with pytest.raises(Verdict, match="returned no runtime_ms"):
        simulated_timing(simulated_runner(), [{"runtime_ms": 1.0}, None])
