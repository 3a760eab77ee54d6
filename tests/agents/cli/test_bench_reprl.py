import json

from agents.runtime.run import Run


def test_replicable_rl_prints_its_four_checks_in_a_run_directory(agent_cli):
    result = agent_cli("bench", "replicable-rl", "--states", "2,3", "--pairs", "10", "--mdps", "1", "--json")
    assert result.code == 0, result.err
    document = json.loads(result.out)
    rows = document["rows"]
    assert [row["check"] for row in rows][2] == "samples needed grow with S at an exponent near 2 (ours)"
    assert len(rows) == 4 and all(row["paper"] and row["measured"] for row in rows)
    assert rows[0]["passed"] and rows[1]["passed"]
    assert Run.open(document["run"]["id"]).status == "finished"


def test_replicable_rl_refuses_bad_state_counts_in_one_line(agent_cli):
    result = agent_cli("bench", "replicable-rl", "--states", "4,x")
    assert result.code == 2 and "--states must be comma-separated integers" in result.err
    result = agent_cli("bench", "replicable-rl", "--states", "1,4")
    assert result.code == 2 and "at least 2 states" in result.err
    result = agent_cli("bench", "replicable-rl", "--states", "32,64")
    assert result.code == 2 and "beyond the sampler's 2^62" in result.err
    result = agent_cli("bench", "replicable-rl", "--rho", "1.5")
    assert result.code == 2 and result.err.count("\n") <= 1 and "rho" in result.err
