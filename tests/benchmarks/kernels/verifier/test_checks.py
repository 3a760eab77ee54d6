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
