import pytest

from sandboxes.errors import UserError
from tools.numerics.ctrl import CONTINUOUS_CONTROL_TOOL


def test_tool_reports_regret_and_variance():
    low = CONTINUOUS_CONTROL_TOOL.invoke({"sigma": 0.25, "episodes": 6, "seeds": 4})
    high = CONTINUOUS_CONTROL_TOOL.invoke({"sigma": 2.0, "episodes": 6, "seeds": 4})
    assert high["cost_variance"] > low["cost_variance"] and high["regret"] > low["regret"] > 0
    assert low["measurements_total"] == 18 and CONTINUOUS_CONTROL_TOOL.approval == "auto"


def test_tool_rejects_bad_arguments():
    with pytest.raises(UserError, match="schedule"):
        CONTINUOUS_CONTROL_TOOL.invoke({"schedule": "weekly"})
