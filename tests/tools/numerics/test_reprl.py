import pytest

from sandboxes.errors import UserError
from tools.numerics.reprl import REPLICABLE_RL_TOOL


def test_tool_replicates_at_the_analysis_size_and_not_with_few_samples():
    derived = REPLICABLE_RL_TOOL.invoke({"states": 3, "pairs": 10})
    assert derived["samples_per_query"] == derived["analysis_samples_per_query"] > 10**9
    assert derived["replication"] == 1.0 and derived["epsilon_optimal"]
    few = REPLICABLE_RL_TOOL.invoke({"planner": "fixed", "states": 3, "pairs": 20, "samples": 32})
    assert few["replication"] < 0.9 and few["samples_per_run"] == 32 * 3 * 3 * 2
    assert derived["samples_per_run"] < 0.01 * derived["samples_per_query"] * 3 * 3 * 2  # adaptive: far below the cap
    assert REPLICABLE_RL_TOOL.approval == "auto"


def test_tool_rejects_bad_arguments():
    with pytest.raises(UserError, match="tied"):
        REPLICABLE_RL_TOOL.invoke({"tied": 4, "actions": 3})
    with pytest.raises(UserError, match="planner"):
        REPLICABLE_RL_TOOL.invoke({"planner": "greedy"})
    with pytest.raises(UserError, match="states"):
        REPLICABLE_RL_TOOL.invoke({"states": 1000})
    with pytest.raises(UserError, match="2\\^62: pass samples"):
        REPLICABLE_RL_TOOL.invoke({"planner": "naive", "states": 40})
