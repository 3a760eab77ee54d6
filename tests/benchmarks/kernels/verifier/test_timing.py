"""Timing: medians, spread, the review flag and re-measurement of implausible speedups; and timing cheats
(work skipped once the clock runs, state kept between calls), each refused twenty times in twenty."""

import types

import pytest

from benchmarks.kernels.verifier.runner.timing import TimingLoop, _iqr
from tests.benchmarks.kernels.verifier.verdicts import adversarial, evaluate_times, matches, runtime_expectation


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

    def no_new_inputs():
        raise AssertionError("the baseline runs on the last checked trial's inputs: no sixth input set is drawn")

    batch = types.SimpleNamespace(fresh_inputs=lambda: [torch.full((2,), 7.0)])
    return types.SimpleNamespace(config={"timing": "simulated"}, hooks=FakeHooks(), reference=lambda x: x + 1,
                                 batch=no_new_inputs, last_batch=batch)


def test_simulated_timing_uses_the_checked_trials_and_the_runner_side_baseline():
    from benchmarks.kernels.verifier.runner.timing import simulated_timing

    trials = [{"runtime_ms": 2.0, "cycles": 200, "bottleneck": "VEC"}] * 4 + [{"runtime_ms": 4.0, "cycles": 400}]
    fields = simulated_timing(simulated_runner(), trials)
    assert fields["runtime_ms"] == 2.0 and fields["reference_ms"] == 8.0 and fields["timed_trials"] == 5
    assert fields["extras"] == {"cycles": 200, "bottleneck": "VEC", "reference_cycles": 800}


def test_simulated_timing_without_runtime_is_a_crash():
    from benchmarks.kernels.verifier.runner.timing import simulated_timing
    from benchmarks.kernels.verifier.runner.verdict import Verdict

    with pytest.raises(Verdict, match="returned no runtime_ms"):
        simulated_timing(simulated_runner(), [{"runtime_ms": 1.0}, None])


def test_a_speedup_over_the_review_threshold_is_measured_again_and_the_second_figure_counts():
    loop = loop_with([], [])
    figures = iter([([1.0] * 4, [20.0] * 4), ([1.0] * 4, [12.0] * 4)])

    def sample():
        loop.samples["solution"], loop.samples["reference"] = next(figures)
        return loop.summary()

    loop.sample = sample
    fields = loop.measure()
    assert fields["reference_ms"] == 12.0 and fields["extras"]["first_speedup"] == 20.0
    assert fields["flags"] == ["speedup>10x: review", "re-measured"]


def test_a_speedup_under_the_threshold_is_measured_once():
    loop = loop_with([], [])
    calls = []

    def sample():
        calls.append(1)
        loop.samples = {"solution": [1.0] * 4, "reference": [3.0] * 4}
        return loop.summary()

    loop.sample = sample
    assert loop.measure()["flags"] == [] and len(calls) == 1


CPP_RELU = r'''
import torch
import torch.nn as nn
from sandboxes.targets.native import load_cpp

SOURCE = r"""
#include <cstdint>
extern "C" void relu_f32(float* out, const float* x, int64_t n) {
    for (int64_t i = 0; i < n; ++i) out[i] = x[i] > 0.0f ? x[i] : 0.0f;
}
"""
lib = load_cpp("relu", SOURCE, {"relu_f32": ["tensor", "tensor", "int"]})
%s

class ModelNew(nn.Module):
    def forward(self, x):
%s
        out = torch.empty_like(x)
        lib.relu_f32(out, x.contiguous(), x.numel())
%s
        return out
'''
APPEND_COUNTER = CPP_RELU % ("CALLS = []\n", "        CALLS.append(1)\n        if len(CALLS) > 3:\n"
                                            "            return torch.empty_like(x)", "")
UPDATE_CACHE = CPP_RELU % ("CACHE = {}\n", "        key = (tuple(x.shape), x.dtype)\n        if key in CACHE:\n"
                                           "            return CACHE[key]", "        CACHE.update({key: out})")
PYTHON_CHEATS = {"call counter kept with append": (APPEND_COUNTER, ("incorrect", "timing", "only correct outside")),
                 "shape-keyed cache filled with update": (UPDATE_CACHE, ("rejected", "correctness", "cached result"))}
TIMES = 20


@pytest.mark.parametrize("path", adversarial("L1__relu__timing_*.py"), ids=lambda p: p.stem)
def test_each_cpu_timing_cheat_is_refused_twenty_times_in_twenty(path, tiny_relu, cpu_target, sandbox, brief, pool):
    expected = runtime_expectation(path)
    results = evaluate_times(TIMES, tiny_relu, path.read_text(), cpu_target, sandbox, brief, pool)
    assert [matches(r, *expected) for r in results] == [True] * TIMES, {r.reason for r in results}


def test_the_issues_example_lazy_after_eighteen_calls_is_refused_twenty_times_in_twenty(tiny_relu, cpu_target,
                                                                                       sandbox, brief, pool):
    """Issue 16's example: the work for the first 18 calls (five trials, three warm-ups and the ten timed calls
    the first edition re-checked at most), then a fraction of it; the first edition passed it every time."""
    (path,) = adversarial("L1__relu__timing_partial_after_warmup.py")
    source = path.read_text().replace("++calls > 5 ?", "++calls > 18 ?").replace('"relu_partial_after_warmup"',
                                                                                 '"relu_partial_after_18"')
    config = brief.model_copy(update={"min_timed_trials": 16, "timed_trials": 16})  # 2 + 1 + 16 + 2 traced = 21 calls
    results = evaluate_times(TIMES, tiny_relu, source, cpu_target, sandbox, config, pool)
    assert [matches(r, "incorrect", "timing", "only correct outside") for r in results] == [True] * TIMES


@pytest.mark.parametrize("name", sorted(PYTHON_CHEATS))
def test_python_state_between_calls_is_refused_twenty_times_in_twenty(name, tiny_relu, cpu_target, sandbox, brief,
                                                                      pool):
    source, expected = PYTHON_CHEATS[name]
    results = evaluate_times(TIMES, tiny_relu, source, cpu_target, sandbox, brief, pool)
    assert [matches(r, *expected) for r in results] == [True] * TIMES, {r.reason for r in results}


NPU_GPU_CHEATS = [(name, path) for name in ("npu", "gpu") for path in adversarial("L1__relu__timing_*.py", name)]


@pytest.mark.parametrize("target_name,path", NPU_GPU_CHEATS, ids=lambda v: getattr(v, "stem", v))
def test_each_npu_and_gpu_timing_cheat_is_refused_twenty_times_in_twenty(target_name, path, request, tiny_relu,
                                                                         sandbox, brief, pool):
    target = request.getfixturevalue(f"{target_name}_target")
    results = evaluate_times(TIMES, tiny_relu, path.read_text(), target, sandbox, brief, pool)
    assert [matches(r, *runtime_expectation(path)) for r in results] == [True] * TIMES, {r.reason for r in results}
