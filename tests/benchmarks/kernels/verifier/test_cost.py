"""The verifier-cost benchmark: both kinds of checks on the same solutions in one run, and the precision table."""

from pathlib import Path

import pytest

from benchmarks.kernels.suite import Pairing
from benchmarks.kernels.verifier.cost import MODES, measure_cost, precision_table
from tests.benchmarks.kernels.verifier.test_timing import CPP_RELU

RELU = CPP_RELU % ("", "", "")


@pytest.fixture(scope="module")
def pair(tiny_relu, tmp_path_factory):
    path = Path(tmp_path_factory.mktemp("solutions")) / "L1__relu.py"
    path.write_text(RELU)
    return Pairing(tiny_relu, path)


def test_both_kinds_of_checks_are_measured_side_by_side(pair, cpu_target, sandbox, quick):
    report = measure_cost([pair, pair], cpu_target, sandbox, quick)
    rows = {row["checks"]: row for row in report.rows}
    assert set(rows) == set(MODES) and all(row["solutions"] == 2 and row["correct"] == 2 for row in rows.values())
    assert rows["current"]["median_checked_outputs"] > rows["previous"]["median_checked_outputs"]
    summary = report.summary
    assert summary["cost_ratio"] == round(rows["previous"]["solutions_per_minute"]
                                          / rows["current"]["solutions_per_minute"], 3)
    assert summary["same_verdicts"] == 2 and summary["cost_target"] == "at most 1.5x"


def test_the_precision_table_shows_each_solutions_margin(pair, cpu_target, sandbox, quick):
    report = precision_table([pair], cpu_target, sandbox, quick)
    (row,) = report.rows
    assert row["status"] == "correct" and row["solution_eps"] == 0.0 and row["bound_eps"] == 256.0
    assert report.summary["measured"] == 1 and report.summary["refused_for_precision"] == 0
