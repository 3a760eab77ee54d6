import json


def test_selftest_cli_writes_the_report(agent_cli, tmp_path):
    out = tmp_path / "selftest.json"
    result = agent_cli("sandbox", "selftest", "--backend", "local", "--case", "environment_secrets",
                       "--json-out", str(out))
    data = json.loads(out.read_text())
    assert result.code == 0, data["rows"]
    assert data["summary"]["all_contained"] is True
    assert data["rows"][0]["case"] == "environment_secrets" and data["rows"][0]["contained"] is True


def test_unknown_case_is_one_line_error(agent_cli):
    result = agent_cli("sandbox", "selftest", "--case", "nope")
    assert result.code == 2 and "unknown selftest case" in result.err
