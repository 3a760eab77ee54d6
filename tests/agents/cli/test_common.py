import json

import typer
from typer.testing import CliRunner

from benchmarks.report import Report

from agents.cli.common import emit_report, with_run_options


def command_app(seen: dict) -> typer.Typer:
    app = typer.Typer()

    @app.command()
    @with_run_options
    def go(size: int = 1, *, options, json_path):
        seen.update(size=size, options=options, json_path=json_path)

    return app


def test_run_options_come_from_flags_then_environment_then_file(tmp_path, monkeypatch):
    (tmp_path / "agentkiln.toml").write_text('[run]\nmodel = "ollama/llama3"\nmax_calls = 9\n')
    monkeypatch.setenv("AGENT_MAX_CALLS", "7")
    seen: dict = {}
    result = CliRunner().invoke(command_app(seen), ["--size", "3", "--max-cost-usd", "0.5", "--cache",
                                                    "--json", "out.json"])
    assert result.exit_code == 0, result.output
    options = seen["options"]
    assert seen["size"] == 3 and str(seen["json_path"]) == "out.json"
    assert (options.model, options.max_calls, options.max_cost_usd, options.cache) == ("ollama/llama3", 7, 0.5, True)


def test_emit_report_prints_the_table_and_writes_json(tmp_path, capsys):
    report = Report(summary={"best": 0.25, "policy": "offline policy: greedy"},
                    rows=[{"case": "a", "score": 0.25}, {"case": "b", "score": None}], title="unit")
    emit_report(report, tmp_path / "out" / "report.json")
    out = capsys.readouterr().out
    for fragment in ("unit", "offline policy: greedy", "case", "score", "0.25", "2 rows"):
        assert fragment in out
    assert json.loads((tmp_path / "out" / "report.json").read_text()) == report.to_dict()
