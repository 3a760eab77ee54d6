"""AHD tools: problem descriptions, and a heuristic evaluated in the real sandbox."""

from __future__ import annotations

import pytest

from sandboxes.errors import UserError
from tools.ahd import make_ahd_tools


@pytest.fixture(scope="module")
def ahd_tools():
    return {tool.name: tool for tool in make_ahd_tools()}


def test_describe_problem(ahd_tools):
    described = ahd_tools["ahd_describe_problem"].invoke({"problem": "bpp_online"})
    assert described["signature"].startswith("def priority(") and "tsp_construct" in described["known_problems"]
    with pytest.raises(UserError, match="unknown AHD problem"):
        ahd_tools["ahd_describe_problem"].invoke({"problem": "chess"})


def test_evaluate_reports_a_broken_heuristic(ahd_tools):
    result = ahd_tools["ahd_evaluate"].invoke({"problem": "bpp_online", "code": "def priority(item, bins):\n"
                                               "    raise RuntimeError('nope')\n"})
    assert result["ok"] is False and result["failure"] == "crash" and "nope" in result["message"]
    assert ahd_tools["ahd_evaluate"].needs_approval and ahd_tools["ahd_evaluate"].sandboxed
