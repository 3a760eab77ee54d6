import json


def test_bench_macko_prints_storage_by_density(isolated_agent_env, agent_cli):
    result = agent_cli("bench", "macko", "--rows", "128", "--cols", "256", "--densities", "0.5,0.1",
                       "--json-out", "m.json")
    assert result.code == 0, result.err
    rows = json.loads((isolated_agent_env / "m.json").read_text())["rows"]
    assert rows[0]["macko_reduction"] > 1.4 and rows[1]["macko_reduction"] > 5
