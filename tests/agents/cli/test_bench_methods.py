import json

from agents.runtime.run import Run


def test_cheap2rich_prints_claim_and_measurement_in_a_run_directory(agent_cli):
    result = agent_cli("bench", "cheap2rich", "--steps", "300", "--seed", "1", "--json")
    assert result.code == 0, result.err
    document = json.loads(result.out)
    assert [row["check"] for row in document["rows"]][0] == "corrected model beats the low-fidelity prior"
    assert all({"paper", "measured", "passed"} <= set(row) for row in document["rows"])
    assert Run.open(document["run"]["id"]).status == "finished"


def test_continuous_rl_prints_both_checks(agent_cli):
    result = agent_cli("bench", "continuous-rl", "--episodes", "4", "--seeds", "2", "--measurements", "2", "--json")
    assert result.code == 0, result.err
    rows = json.loads(result.out)["rows"]
    assert [row["check"] for row in rows] == ["regret grows with the total reward variance",
                                              "random schedule: same regret with fewer measurements than a fixed one"]
    assert all(row["paper"] and row["measured"] for row in rows)


def test_solar_prints_its_three_checks(agent_cli):
    result = agent_cli("bench", "solar", "--seeds", "1", "--iterations", "220", "--json")
    assert result.code == 0, result.err
    rows = json.loads(result.out)["rows"]
    assert len(rows) == 3 and rows[0]["passed"] and all(row["paper"] and row["measured"] for row in rows)
    assert "nan" not in rows[1]["measured"]


def test_solar_refuses_a_run_too_short_to_measure_its_oscillation(agent_cli):
    result = agent_cli("bench", "solar", "--iterations", "60")
    assert result.code == 2 and "220" in result.err
