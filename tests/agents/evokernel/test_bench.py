"""`agent bench evokernel`: every method on the same tasks, budget and seeds, and the memory effect, one table."""

import json

import pytest

from agents.evokernel.bench import arms, parse_methods
from agents.evokernel.config import METHODS
from agents.runtime.run import Run
from sandboxes.errors import UserError


def test_parse_methods_and_arms():
    assert parse_methods("all") == list(METHODS)
    assert parse_methods("refine, pass@k") == ["refine", "pass@k"]
    with pytest.raises(UserError, match="unknown method"):
        parse_methods("beam")
    assert arms(["evokernel", "refine"]) == [("evokernel", True), ("evokernel", False), ("refine", True)]


@pytest.mark.slow
def test_memory_effect_table_on_a_small_configuration(agent_cli, isolated_agent_env, small_tasks, tmp_path):
    result = agent_cli("bench", "evokernel", "--methods", "evokernel,refine", "--target", "npu",
                       "--tasks", str(small_tasks),
                       "--budget", "2", "--workers", "2", "--seeds", "2", "--waves", "2", "--model", "offline",
                       "--json-out", str(tmp_path / "b.json"))
    assert result.code == 0, result.err
    report = json.loads((tmp_path / "b.json").read_text())
    arms_run = ["evokernel (carried memory)", "evokernel (empty memory)", "refine"]
    assert [row["arm"] for row in report["rows"]] == arms_run
    for row in report["rows"]:
        assert row["policy"] == "offline policy: template mutation" and 1 <= row["attempts_to_90_mean"] <= 3
        assert row["attempts_to_90"].count("[") == 1 and 0.0 <= row["reached_90"] <= 1.0
        assert row["correctness"] == 1.0 and row["attempts"] <= 4 and len(row["runs"].split(", ")) == 2
    summary = report["summary"]
    assert summary["seeds"] == 2 and summary["waves"] == 2
    for key in ("memory_effect_evokernel", "refine_minus_evokernel"):
        assert "attempts over 1 tasks" in summary[key] or "attempts over 2 tasks" in summary[key]
    children = [Run.open(run_id) for row in report["rows"] for run_id in row["runs"].split(", ")]
    assert len(children) == 6 and all(child.status == "finished" for child in children)
    attempts = sum(len(child.events("evokernel.attempt")) for child in children)
    verified = sum(len(child.events("kernel.evaluate")) for child in children)
    assert verified < attempts  # children share the bench's cache of simulated verdicts
