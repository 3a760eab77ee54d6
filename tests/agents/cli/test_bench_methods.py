import json

from agents.runtime.run import Run


def test_cheap2rich_prints_claim_and_measurement_in_a_run_directory(agent_cli):
    result = agent_cli("bench", "cheap2rich", "--steps", "600", "--seed", "1", "--json")
    assert result.code == 0, result.err
    document = json.loads(result.out)
    assert [row["check"] for row in document["rows"]][0] == "corrected model beats the low-fidelity prior"
    assert all({"paper", "measured", "passed"} <= set(row) for row in document["rows"])
    assert Run.open(document["run"]["id"]).status == "finished"
