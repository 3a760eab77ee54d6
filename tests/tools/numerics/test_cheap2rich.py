import pytest

from sandboxes.errors import UserError
from tools.numerics.cheap2rich import CHEAP2RICH_TOOL


def test_tool_reports_errors_terms_and_checks():
    result = CHEAP2RICH_TOOL.invoke({"steps": 600, "train_trajectories": 1, "test_trajectories": 1, "seed": 1})
    assert result["relative_error"]["corrected"] < result["relative_error"]["prior"]
    assert set(result["learned_terms"]) == {"u", "u*cos(3x)"} and len(result["checks"]) == 3
    assert CHEAP2RICH_TOOL.approval == "auto"


def test_tool_rejects_bad_arguments():
    with pytest.raises(UserError, match="sensors"):
        CHEAP2RICH_TOOL.invoke({"sensors": 1})
    with pytest.raises(UserError, match="path"):
        CHEAP2RICH_TOOL.invoke({"path": "/etc/passwd"})
