"""End to end through the real sandbox: each verifier stage gives its status and actionable feedback."""

import pytest

from benchmarks.kernels.tasks import load_task
from benchmarks.kernels.verifier.eager import eager_config, eager_source
from benchmarks.kernels.verifier.harness import evaluate
from benchmarks.kernels.verifier.result import Status

KERNEL = r'''
import torch
import torch.nn as nn
from sandboxes.targets.native import load_cpp

SOURCE = r"""
#include <cstdint>
extern "C" void relu_f32(float* out, const float* x, int64_t n) {
    for (int64_t i = 0; i < n; ++i) out[i] = %s;
}
"""
lib = load_cpp("relu", SOURCE, {"relu_f32": ["tensor", "tensor", "int"]})


class ModelNew(nn.Module):
    def forward(self, x):
        out = torch.empty_like(x)
        lib.relu_f32(out, x.contiguous(), x.numel())
        return out
'''
CORRECT = KERNEL % "x[i] > 0.0f ? x[i] : 0.0f"


def test_correct_kernel_is_timed_against_the_reference(tiny_relu, cpu_target, sandbox, quick):
    result = evaluate(tiny_relu, CORRECT, cpu_target, sandbox=sandbox, config=quick)
    assert result.status is Status.CORRECT, result.reason
    assert result.trials == 5 and result.timed_trials >= 5
    assert result.runtime_ms > 0 and result.reference_ms > 0 and result.speedup > 0
    assert result.to_row()["speedup"] == pytest.approx(result.reference_ms / result.runtime_ms, rel=1e-3)


@pytest.mark.slow
def test_wrong_values_are_incorrect_with_location(tiny_relu, cpu_target, sandbox, quick):
    result = evaluate(tiny_relu, KERNEL % "x[i] > 0.0f ? x[i] : 0.5f", cpu_target, sandbox=sandbox, config=quick)
    assert result.status is Status.INCORRECT
    assert "trial 1 of 5" in result.reason and "elements differ" in result.reason and "expected 0" in result.reason


def test_compile_error_is_trimmed(tiny_relu, cpu_target, sandbox, quick):
    result = evaluate(tiny_relu, KERNEL % "x[i] > 0.0f ? x[i] : zero_value", cpu_target, sandbox=sandbox, config=quick)
    assert result.status is Status.COMPILE_ERROR and not result.compiled
    assert "zero_value" in result.reason and "was not declared" in result.reason and len(result.reason) < 2600


@pytest.mark.slow
def test_exception_in_forward_is_a_crash_with_traceback(tiny_relu, cpu_target, sandbox, quick):
    source = CORRECT.replace("out = torch.empty_like(x)", "out = torch.empty(3)")
    result = evaluate(tiny_relu, source.replace("x.numel())", "x.numel(), 1)"), cpu_target, sandbox=sandbox,
                      config=quick)
    assert result.status is Status.CRASHED and "takes 3 arguments" in result.reason


@pytest.mark.slow
def test_hanging_kernel_times_out(tiny_relu, cpu_target, sandbox, quick):
    hang = KERNEL % "x[i]; for (volatile int64_t spin = 0; n > 0; spin = spin + 1) {}"
    config = quick.model_copy(update={"call_timeout_s": 3.0})
    result = evaluate(tiny_relu, hang, cpu_target, sandbox=sandbox, config=config)
    assert result.status is Status.TIMEOUT and "within 3 s" in result.reason


@pytest.mark.slow
def test_runtime_defences_hold_without_static_checks(tiny_relu, cpu_target, sandbox, brief, pool):
    """With the AST stage off, the trusted runner still catches cached outputs and fake tensors (through the
    shared persistent runners), a worker's exit and a printed score line (one-shot: the runner's own stdout)."""
    cached = CORRECT.replace("class ModelNew", "MEMO = []\n\n\nclass ModelNew").replace(
        "        out = torch.empty_like(x)\n", "        if MEMO:\n            return MEMO[0]\n"
                                              "        out = torch.empty_like(x)\n        MEMO.append(out)\n")
    result = evaluate(tiny_relu, cached, cpu_target, sandbox=sandbox, config=brief, runner=pool)
    assert result.status is Status.REJECTED and "cached result" in result.reason
    subclass = CORRECT.replace("        return out", "        return out.as_subclass(Fake)").replace(
        "class ModelNew", "class Fake(torch.Tensor):\n    pass\n\n\nclass ModelNew")
    result = evaluate(tiny_relu, subclass, cpu_target, sandbox=sandbox, config=brief, runner=pool)
    assert result.status is Status.REJECTED and "plain materialised torch.Tensor" in result.reason
    exits = CORRECT.replace("        out = torch.empty_like(x)\n", "        import os\n        os._exit(0)\n")
    result = evaluate(tiny_relu, exits, cpu_target, sandbox=sandbox, config=brief)
    assert result.status is Status.CRASHED and "exit code 0" in result.reason
    printer = CORRECT.replace("class ModelNew", 'print("AKRESULT 0 {}")\n\n\nclass ModelNew')
    assert evaluate(tiny_relu, printer, cpu_target, sandbox=sandbox, config=brief).status is Status.CORRECT


DROPOUT_TASK = '''"""ReLU then dropout, in training mode as KernelBench builds it: a different mask on every call."""
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super().__init__()
        self.dropout = nn.Dropout(0.5)

    def forward(self, x):
        return self.dropout(torch.relu(x))


def get_inputs():
    return [torch.randn(64, 1024)]


def get_init_inputs():
    return []
'''


def test_a_reference_that_disagrees_with_itself_is_the_tasks_error_not_the_kernels(tmp_path, cpu_target, sandbox,
                                                                                   quick):
    path = tmp_path / "relu_dropout.py"
    path.write_text(DROPOUT_TASK)
    task = load_task(path, level="L2")
    result = evaluate(task, eager_source(task), cpu_target, sandbox=sandbox, config=eager_config(quick))
    assert result.status is Status.TASK_ERROR and result.stage == "reference" and not result.correct
    assert "gave two different outputs for the same inputs" in result.reason and "dropout" in result.reason


TUPLE_TASK = '''
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x):
        return x * 2, x + 1


def get_inputs():
    return [torch.randn(256)]


def get_init_inputs():
    return []
'''


def test_a_task_whose_reference_returns_a_tuple_is_the_tasks_error(tmp_path, cpu_target, sandbox, quick):
    """It crashed the trusted runner ('tuple' object has no attribute 'numel'), and the blame fell on the kernel."""
    path = tmp_path / "pair.py"
    path.write_text(TUPLE_TASK)
    task = load_task(path, level="L1")
    result = evaluate(task, eager_source(task), cpu_target, sandbox=sandbox, config=eager_config(quick))
    assert result.status is Status.TASK_ERROR and "returns tuple, not one tensor" in result.reason, result.reason
