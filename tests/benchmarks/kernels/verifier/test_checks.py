"""Outputs that are not what the task asks for: views of an input and lower precision, on every target;
plus the order of the checks on one output (unit tests with a stand-in for the worker's side)."""

import types

import pytest
import torch

from benchmarks.kernels.verifier.runner.calls import Output
from benchmarks.kernels.verifier.runner.checks import OutputChecks
from benchmarks.kernels.verifier.runner.precision import PrecisionCheck
from benchmarks.kernels.verifier.runner.verdict import Verdict
from tests.benchmarks.kernels.verifier.verdicts import adversarial, matches, runtime_expectation, task_for
from benchmarks.kernels.verifier.harness import evaluate
from benchmarks.kernels.suite import SOLUTIONS_ROOT

CPU_FILES = adversarial("L1__transpose_2d__output_*.py") + adversarial("L1__relu__precision_*.py")
OTHER_FILES = [(target, path) for target in ("npu", "gpu")
               for path in adversarial("L1__*__output_*.py", target) + adversarial("L1__*__precision_*.py", target)]


@pytest.mark.parametrize("path", CPU_FILES, ids=lambda p: p.stem)
def test_views_and_lower_precision_are_refused_on_cpu(path, request, cpu_target, sandbox, brief, pool):
    result = evaluate(task_for(path, request), path.read_text(), cpu_target, sandbox=sandbox, config=brief,
                      runner=pool)
    assert matches(result, *runtime_expectation(path)), (result.status, result.stage, result.reason)


@pytest.mark.parametrize("target_name,path", OTHER_FILES, ids=lambda v: getattr(v, "stem", v))
def test_views_and_lower_precision_are_refused_on_npu_and_gpu(target_name, path, request, sandbox, brief, pool):
    target = request.getfixturevalue(f"{target_name}_target")
    result = evaluate(task_for(path, request), path.read_text(), target, sandbox=sandbox, config=brief, runner=pool)
    assert matches(result, *runtime_expectation(path)), (result.status, result.stage, result.reason)


class StandIn:
    """A worker's side as the checks see it: which inputs changed in the shared region."""

    def __init__(self, changed=()):
        self.changed = list(changed)

    def mutated(self, batch):
        return self.changed


def checks(tripwire="refuse"):
    return OutputChecks(types.SimpleNamespace(), PrecisionCheck(torch.nn.Identity(), enabled=False), tripwire, [])


def test_mutation_is_judged_before_aliasing_and_values():
    output = Output(torch.zeros(3), overlap=0)
    with pytest.raises(Verdict) as caught:
        checks().judge(StandIn([0]), None, output, torch.ones(3), "trial 1", "correctness")
    assert (caught.value.status, caught.value.stage) == ("rejected", "mutation")


def test_a_view_is_refused_unless_the_task_itself_returns_one():
    judge = checks()
    with pytest.raises(Verdict, match="overlaps input 0"):
        judge.judge(StandIn(), None, Output(torch.ones(3), overlap=0), torch.ones(3), "trial 1", "correctness")
    judge.allow_overlap = True
    assert judge.judge(StandIn(), None, Output(torch.ones(3), overlap=0), torch.ones(3), "trial 1",
                       "correctness").problem == ""


def test_an_output_in_a_permuted_layout_is_refused_unless_the_reference_returns_that_layout():
    judge = checks()
    with pytest.raises(Verdict, match=r"not in row-major order \(its dims by stride: \[1, 0\]\)") as caught:
        judge.judge(StandIn(), None, Output(torch.ones(3, 4), order=[1, 0]), torch.ones(3, 4), "trial 1", "correctness")
    assert (caught.value.status, caught.value.stage) == ("rejected", "output")
    row_major_slice = judge.judge(StandIn(), None, Output(torch.ones(3, 4), order=[0, 1]), torch.ones(3, 4), "t", "c")
    as_the_reference = judge.judge(StandIn(), None, Output(torch.ones(3, 4), order=[1, 0]), torch.ones(4, 3).t(), "t",
                                   "c")
    assert row_major_slice.problem == as_the_reference.problem == ""


def test_the_tripwire_refuses_flags_or_is_ignored():
    report = {"allowed": {}, "forbidden": {"relu": 2}, "sites": {"relu": "solution.py:9"}}
    with pytest.raises(Verdict, match=r"aten.relu x2 \(from solution.py:9\)"):
        checks("refuse").judge(StandIn(), None, Output(torch.ones(3), report), torch.ones(3), "trial 1", "correctness")
    flagging = checks("flag")
    flagging.judge(StandIn(), None, Output(torch.ones(3), report), torch.ones(3), "trial 1", "correctness")
    assert flagging.flags == ["tripwire"]
    assert checks("off").judge(StandIn(), None, Output(torch.ones(3), report), torch.ones(3), "t",
                               "correctness").problem == ""


def test_a_repeated_output_is_a_cache_refused_in_trials_and_incorrect_when_timed():
    judge = checks()
    first = torch.tensor([1.0, 2.0])
    judge.judge(StandIn(), None, Output(first), first.clone(), "trial 1", "correctness")
    with pytest.raises(Verdict) as caught:
        judge.judge(StandIn(), None, Output(first.clone()), torch.tensor([3.0, 4.0]), "trial 2", "correctness")
    assert caught.value.status == "rejected" and "cached result" in caught.value.reason
    with pytest.raises(Verdict) as caught:
        judge.judge(StandIn(), None, Output(first.clone()), torch.tensor([3.0, 4.0]), "timed call 1", "timing")
    assert (caught.value.status, caught.value.stage) == ("incorrect", "timing")


def test_a_range_trial_weighs_the_whole_output():
    near_zero_off = torch.tensor([1000.0, -1000.0, 0.01])  # far past atol at one place, 5e-6 of the whole
    checks().judge(StandIn(), None, Output(near_zero_off), torch.tensor([1000.0, -1000.0, 0.0]), "range trial 1",
                   "correctness", scaled=True)
    with pytest.raises(Verdict, match="range trial 1: .*relative L1 error"):
        checks().judge(StandIn(), None, Output(torch.full((3,), 16.0)), torch.tensor([16.0, 100.0, 200.0]),
                       "range trial 1", "correctness", scaled=True)


EXP_TASK = '''"""exp of a small tensor: its reference overflows on the range trial's inputs."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return torch.exp(x)


def get_inputs():
    return [torch.randn(16, 256)]


def get_init_inputs():
    return []
'''

RELU = (SOLUTIONS_ROOT / "reference" / "cpu" / "L1__relu.py").read_text()
EXP_SOLUTION = RELU.replace("v > 0.0f ? v : 0.0f", "std::exp(v)").replace('load_cpp("relu"', 'load_cpp("exp_plain"')


def test_the_range_trial_is_skipped_where_the_reference_overflows(tmp_path, cpu_target, sandbox, quick, pool):
    from benchmarks.kernels.tasks import load_task

    (tmp_path / "exp.py").write_text(EXP_TASK)
    result = evaluate(load_task(tmp_path / "exp.py", level="L1"), EXP_SOLUTION, cpu_target, sandbox=sandbox,
                      config=quick, runner=pool)
    assert result.correct, result.reason
    assert result.evidence["range_trial"] == "skipped: the reference is not finite on them"


def test_a_task_can_turn_the_range_trial_off(tmp_path, cpu_target, sandbox, quick, pool):
    from benchmarks.kernels.tasks import load_task

    (tmp_path / "exp.py").write_text(EXP_TASK.replace("class Model", "RANGE_CHECK = False\n\n\nclass Model"))
    result = evaluate(load_task(tmp_path / "exp.py", level="L1"), EXP_SOLUTION, cpu_target, sandbox=sandbox,
                      config=quick, runner=pool)
    assert result.correct and result.evidence["range_trial"] == "skipped: the task sets RANGE_CHECK = False"


def test_an_honest_kernel_passes_its_range_trial(tiny_relu, cpu_target, sandbox, quick, pool):
    result = evaluate(tiny_relu, RELU, cpu_target, sandbox=sandbox, config=quick, runner=pool)
    assert result.correct and result.evidence["range_trial"] == "passed", result.reason


CLAMPED_RELU = RELU.replace("v > 0.0f ? v : 0.0f", "v > 0.0f ? (v < 16.0f ? v : 16.0f) : 0.0f").replace(
    'load_cpp("relu"', 'load_cpp("relu_clamped"')
"""A ReLU that clamps at 16, which no randn input reaches: right on every trial from get_inputs."""


@pytest.mark.parametrize("mode", ["refuse", "flag"])
def test_a_kernel_right_only_near_the_task_inputs_is_refused_or_flagged(mode, tiny_relu, cpu_target, sandbox, quick,
                                                                        pool):
    config = quick.model_copy(update={"range_check": mode})
    result = evaluate(tiny_relu, CLAMPED_RELU, cpu_target, sandbox=sandbox, config=config, runner=pool)
    if mode == "refuse":
        assert matches(result, "incorrect", "correctness", "range trial relative L1 error is"), result.reason
    else:
        assert result.correct and "wrong outside the task's input range" in result.flags
        assert result.evidence["range_trial"].startswith("failed: range trial")
