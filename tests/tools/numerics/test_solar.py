import pytest

from sandboxes.errors import UserError
from tools.numerics.solar import SOLAR_TOOL


def test_tool_returns_the_curve_and_the_switch():
    result = SOLAR_TOOL.invoke({"mode": "solar", "iterations": 80, "episodes": 20})
    assert len(result["success_curve"]) == 8 and result["shaping_from"] == 60
    assert SOLAR_TOOL.approval == "auto"


def test_tool_rejects_bad_arguments():
    with pytest.raises(UserError, match="mode"):
        SOLAR_TOOL.invoke({"mode": "shaped"})
