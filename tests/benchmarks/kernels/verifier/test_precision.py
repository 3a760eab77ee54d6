"""The precision check: float64 reference, the bound, and legitimate float32 kernels with other summation
orders (which must pass) beside a float16 downgrade (which must not)."""

import pytest
import torch

from benchmarks.kernels.verifier.harness import evaluate
from benchmarks.kernels.verifier.runner.precision import FLOOR, RATIO, PrecisionCheck

EPS = torch.finfo(torch.float32).eps


class Sum(torch.nn.Module):
    def forward(self, x):
        return torch.sum(x, dim=1)


def test_an_exact_reference_allows_the_floor_and_a_float16_result_is_refused():
    check = PrecisionCheck(torch.nn.ReLU(), enabled=True)
    x = torch.randn(64, 256)
    expected = torch.relu(x)
    assert check.trial([x], expected, expected.clone()) == ""
    problem = check.trial([x], expected, expected.half().float())
    assert "lower precision than the task" in problem and "makes 0 eps" in problem
    assert check.evidence()["bound_eps"] == FLOOR


def test_the_bound_grows_with_the_references_own_error():
    check = PrecisionCheck(Sum(), enabled=True)
    x = torch.randn(8, 4096) * 100
    expected = Sum()(x)
    assert check.trial([x], expected, x.double().sum(1).float()) == ""
    reference_error = check.reference_errors[0]
    assert check.bound(reference_error) == max(RATIO * reference_error, FLOOR * EPS)
    assert check.timed_bound() == check.bound(reference_error) + 2 * reference_error


def test_integer_outputs_and_turned_off_checks_are_skipped():
    check = PrecisionCheck(torch.nn.Identity(), enabled=True)
    assert check.trial([torch.arange(4)], torch.arange(4), torch.arange(4)) == ""
    assert check.evidence() == {"skipped": "integer output: compared exactly"}
    assert PrecisionCheck(torch.nn.Identity(), enabled=False).evidence() == {"skipped": "turned off"}


ORDERS = {
    "sequential": "float s = 0.0f; for (int64_t c = 0; c < cols; ++c) s += row[c]; out[r] = s;",
    "reversed": "float s = 0.0f; for (int64_t c = cols - 1; c >= 0; --c) s += row[c]; out[r] = s;",
    "eight_lanes": "float l[8] = {0}; for (int64_t c = 0; c < cols; ++c) l[c % 8] += row[c]; "
                   "out[r] = ((l[0] + l[1]) + (l[2] + l[3])) + ((l[4] + l[5]) + (l[6] + l[7]));",
    "kahan": "float s = 0.0f, k = 0.0f; for (int64_t c = 0; c < cols; ++c) { float y = row[c] - k; "
             "float t = s + y; k = (t - s) - y; s = t; } out[r] = s;",
    "half": "_Float16 s = 0; for (int64_t c = 0; c < cols; ++c) s += (_Float16) row[c]; out[r] = (float) s;",
}
FUNCTIONS = "".join(f"""
extern "C" void sum_{name}(float* out, const float* x, int64_t rows, int64_t cols) {{
    for (int64_t r = 0; r < rows; ++r) {{ const float* row = x + r * cols; {body} }}
}}""" for name, body in ORDERS.items())
SUM_KERNEL = '''
import torch
import torch.nn as nn
from sandboxes.targets.native import load_cpp

SOURCE = r"""
#include <cstdint>
%s
"""
lib = load_cpp("sum_orders", SOURCE, {f"sum_{name}": ["tensor", "tensor", "int", "int"] for name in %r})


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.contiguous()
        out = torch.empty(x.shape[0], dtype=x.dtype)
        lib.sum_%s(out, x, x.shape[0], x.shape[1])
        return out
'''


def summing(name):
    """A solution summing the rows in the order ``name`` (all orders share one library: one build)."""
    return SUM_KERNEL % (FUNCTIONS, sorted(ORDERS), name)


@pytest.mark.parametrize("order", sorted(set(ORDERS) - {"half"}))
def test_float32_kernels_with_another_summation_order_pass(order, tiny_sum_rows, cpu_target, sandbox, brief, pool):
    result = evaluate(tiny_sum_rows, summing(order), cpu_target, sandbox=sandbox, config=brief, runner=pool)
    assert result.correct, result.reason
    assert result.evidence["precision"]["solution_eps"] < FLOOR


def test_a_float16_accumulator_is_refused(tiny_sum_rows, cpu_target, sandbox, brief, pool):
    result = evaluate(tiny_sum_rows, summing("half"), cpu_target, sandbox=sandbox, config=brief, runner=pool)
    assert (result.status.value, result.stage) in {("incorrect", "precision"), ("incorrect", "correctness")}
