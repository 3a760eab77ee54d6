"""`agent bench evokernel --methods all`: the four methods on the same tasks and budget, one table."""

import json

import pytest

from agents.evokernel.bench import parse_methods
from agents.evokernel.config import METHODS
from sandboxes.errors import UserError


def test_parse_methods():
    assert parse_methods("all") == list(METHODS)
    assert parse_methods("refine, pass@k") == ["refine", "pass@k"]
    with pytest.raises(UserError, match="unknown method"):
        parse_methods("beam")


@pytest.mark.slow
def test_all_methods_on_the_same_tasks(agent_cli, isolated_agent_env, small_tasks, tmp_path):
    result = agent_cli("bench", "evokernel", "--methods", "all", "--target", "npu", "--tasks", str(small_tasks),
                       "--budget", "2", "--workers", "2", "--model", "offline", "--json-out", str(tmp_path / "b.json"))
    assert result.code == 0, result.err
    report = json.loads((tmp_path / "b.json").read_text())
    assert [row["method"] for row in report["rows"]] == list(METHODS)
    for row in report["rows"]:
        assert row["policy"] == "offline policy: template mutation" and row["attempts"] <= 4
        assert 0.0 <= row["correctness"] <= 1.0
