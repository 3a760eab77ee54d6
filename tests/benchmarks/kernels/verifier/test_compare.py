"""Tolerances by dtype and mismatch feedback."""

import types

import pytest
import torch

from benchmarks.kernels.verifier.runner.compare import mismatch, tolerance


def test_tolerance_by_dtype_and_task_override():
    assert tolerance(torch.float16) == (1e-2, 1e-2)
    assert tolerance(torch.int64) == (0.0, 0.0)
    assert tolerance(torch.float32, types.SimpleNamespace(ATOL=0.5)) == (0.5, 1e-3)


def test_mismatch_reports_count_position_and_values():
    expected = torch.zeros(4, 4)
    output = expected.clone()
    output[2, 1] = 1.0
    text = mismatch(output, expected, 1e-3, 1e-3)
    assert "1 of 16 elements differ" in text and "(2, 1)" in text and "got 1" in text


def test_shape_dtype_and_exact_integer_checks():
    assert "shape" in mismatch(torch.zeros(3), torch.zeros(4), 0, 0)
    assert "dtype" in mismatch(torch.zeros(3, dtype=torch.float64), torch.zeros(3), 0, 0)
    assert mismatch(torch.tensor([1, 2]), torch.tensor([1, 2]), 0, 0) == ""
    assert mismatch(torch.tensor([1, 3]), torch.tensor([1, 2]), 0, 0) != ""


def test_nan_in_output_is_a_mismatch_but_matching_nans_are_not():
    assert mismatch(torch.tensor([float("nan")]), torch.tensor([0.0]), 1e-3, 1e-3) != ""
    assert mismatch(torch.tensor([float("nan")]), torch.tensor([float("nan")]), 1e-3, 1e-3) == ""
    assert mismatch(torch.tensor(2.0), torch.tensor(2.0005), 1e-3, 1e-3) == ""


def test_one_pass_measures_several_tensors_against_the_truth():
    from benchmarks.kernels.verifier.runner.compare import relative_errors

    truth = torch.tensor([1.0, -2.0, float("inf"), 4.0], dtype=torch.float64)
    exact, off = truth.float(), torch.tensor([1.5, -2.0, 0.0, 4.0])
    assert relative_errors(truth, exact, off) == [0.0, 0.5 / 7.0]  # the infinite place is left out
    assert relative_errors(truth, torch.tensor([float("nan"), -2.0, 0.0, 4.0])) == [float("inf")]


def test_compare_sums_the_error_in_the_same_pass():
    from benchmarks.kernels.verifier.runner.compare import compare

    comparison = compare(torch.tensor([1.0, 2.0005]), torch.tensor([1.0, 2.0]), 1e-3, 1e-3)
    assert comparison.problem == "" and comparison.relative_error() == pytest.approx(0.0005 / 3.0, rel=1e-3)


def test_range_comparison_weighs_the_whole_output_not_each_element():
    from benchmarks.kernels.verifier.runner.compare import RANGE_RELATIVE_L1, range_comparison

    expected = torch.tensor([1000.0, -1000.0, 1e-4, 0.0])
    rounded = expected + torch.tensor([0.0, 0.0, 0.01, -0.01])  # near-zero sums off by far more than atol
    assert range_comparison(rounded, expected).problem == ""
    clamped = expected.clamp(max=16.0)
    assert "relative L1 error" in range_comparison(clamped, expected).problem
    overflowed = torch.tensor([float("nan"), -1000.0, 1e-4, 0.0])
    assert "not finite where the reference is" in range_comparison(overflowed, expected).problem
    assert "dtype" in range_comparison(expected.double(), expected).problem
    assert range_comparison(torch.tensor([3, 1]), torch.tensor([3, 2])).problem  # integers exactly
    assert RANGE_RELATIVE_L1 < 0.01
