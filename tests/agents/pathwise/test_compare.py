"""PathWise, EoH and random search side by side on one budget and seed, offline, in the real sandbox."""

import pytest

from agents.pathwise.agent import AGENT, execute
from agents.pathwise.compare import _mean_and_se, parse_methods, side_by_side
from agents.pathwise.context import PathWiseConfig
from agents.pathwise.offline import NAME
from agents.runtime.registry import register_agent


def test_methods_share_budget_and_seed_and_sit_side_by_side(pathwise_env):
    register_agent(AGENT, execute)
    base = PathWiseConfig(problem="kp_construct", budget=3, initial_population=1, population=2,
                          test_sizes=[50])
    report = side_by_side(base, ["pathwise", "random"], [0])
    assert report.summary["policy"] == NAME and report.summary["budget"] == 3
    assert [row["size"] for row in report.rows] == [50] and "capacity" not in report.rows[0]
    for row in report.rows:
        for method in ("pathwise", "random"):
            assert row[f"{method}_gap"] is not None and row[f"{method}_se"] >= 0.0
        assert row["greedy_ratio_gap"] is not None
    assert report.summary["pathwise_runs"] != report.summary["random_runs"]


def test_methods_are_parsed_and_unknown_ones_refused():
    assert parse_methods("pathwise, eoh,random,eoh") == ["pathwise", "eoh", "random"]
    with pytest.raises(ValueError, match="unknown method"):
        parse_methods("pathwise,funsearch")


def test_several_seeds_report_the_spread_over_seeds():
    assert _mean_and_se([{"gap_percent": 1.0, "se_percent": 0.5}]) == (1.0, 0.5)
    assert _mean_and_se([{"gap_percent": 1.0}, {"gap_percent": 3.0}]) == (2.0, 1.0)
    assert _mean_and_se([{}]) == (None, None)
