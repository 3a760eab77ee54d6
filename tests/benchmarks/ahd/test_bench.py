"""Baseline rows carry the required columns, and the classic baselines reproduce published gaps."""

import pytest

from benchmarks.ahd.bench import baseline_report, speed_report, speed_evaluator
from benchmarks.ahd.evaluator import Evaluator, EvaluatorConfig
from benchmarks.ahd.published import PUBLISHED
from benchmarks.ahd.registry import get_problem


def test_bin_packing_baselines_match_eoh_on_5k_within_sampling_noise(sandbox):
    problem = get_problem("bpp_online")
    report = baseline_report(problem, Evaluator(problem, "test", EvaluatorConfig(wall_s=60), sandbox=sandbox,
                                                sizes={5000}))
    assert {(r["method"], r["capacity"]) for r in report.rows} == {
        (m, c) for m in ("first_fit", "best_fit") for c in (100, 500)}
    for row in report.rows:
        assert {"method", "size", "capacity", "gap_percent", "se_percent"} <= set(row)
        eoh = PUBLISHED[("bpp_online", row["method"], 5000, row["capacity"])][0][0]
        # difference of two 5-instance means: allow four standard errors of each side
        assert abs(row["gap_percent"] - eoh) < 4 * 1.42 * row["se_percent"] + 0.05, row


def test_nearest_neighbour_tsp_gap_is_in_the_published_range(sandbox):
    problem = get_problem("tsp_construct")
    report = baseline_report(problem, Evaluator(problem, "test", EvaluatorConfig(wall_s=60), sandbox=sandbox,
                                                sizes={50, 100}))
    for row in report.rows:
        assert row["method"] == "nearest_neighbour" and "capacity" not in row
        assert 18.0 < row["gap_percent"] < 28.0, row


def test_speed_report_times_compute_apart_from_start_up(sandbox):
    report = speed_report(speed_evaluator(sandbox), repeats=1)
    row = report.rows[0]
    assert row["sets"] == 2 and row["items_per_set"] == 25000
    assert 0 < row["compute_s_per_set"] <= row["wall_s_per_set"]
    assert report.summary["heuristic"] == "best_fit"
