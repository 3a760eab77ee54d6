from numerics.reprl.checks import CheckConfig
from numerics.reprl.report import rows

ANALYSIS = {"ours": {"n": 10, "replication": 0.95, "worst_suboptimality": 0.01},
            "fixed": {"n": 10, "replication": 0.99, "worst_suboptimality": 0.02},
            "naive": {"n": 100, "replication": 1.0, "worst_suboptimality": 0.0}}
NEEDED = {"ours": [100, 800], "fixed": [100, 1600], "naive": [10**6, None]}


def test_an_exponent_near_three_is_reported_as_not_reproducing_the_paper():
    table = rows(CheckConfig(states=[4, 8]), ANALYSIS, NEEDED, {"ours": 3.0, "fixed": 4.0, "naive": 6.0},
                 {"ours": 2.1, "fixed": 3.1, "naive": 7.2})
    assert [row["passed"] for row in table] == [True, True, False, True]
    assert "the paper's S^2 is not reproduced; measured exponent 3.00" in table[2]["measured"]
    assert "S=8: not reached" in table[3]["measured"]


def test_an_exponent_near_two_passes_and_a_failed_replication_fails():
    analysis = {**ANALYSIS, "ours": {**ANALYSIS["ours"], "replication": 0.8}}
    table = rows(CheckConfig(states=[4, 8]), analysis, NEEDED, {"ours": 2.2, "fixed": 3.0, "naive": None},
                 {"ours": 2, "fixed": 3, "naive": 7})
    assert [row["passed"] for row in table] == [False, True, True, False]
