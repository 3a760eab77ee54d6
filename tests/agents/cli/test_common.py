import json

import typer
from typer.testing import CliRunner

from agents.cli.common import run_benchmark, with_run_options
from agents.runtime.run import Run
from benchmarks.report import Report


def command_app(seen: dict) -> typer.Typer:
    app = typer.Typer()

    @app.command()
    @with_run_options
    def go(size: int = 1, *, options, output):
        seen.update(size=size, options=options, output=output)

    return app


def test_run_options_come_from_flags_then_environment_then_file(tmp_path, monkeypatch):
    (tmp_path / "agentkiln.toml").write_text('[run]\nmodel = "ollama/llama3"\nmax_calls = 9\n')
    monkeypatch.setenv("AGENT_MAX_CALLS", "7")
    seen: dict = {}
    result = CliRunner().invoke(command_app(seen), ["--size", "3", "--max-cost-usd", "0.5", "--cache",
                                                    "--json-out", "out.json"])
    assert result.exit_code == 0, result.output
    options = seen["options"]
    assert seen["size"] == 3 and str(seen["output"].json_out) == "out.json" and not seen["output"].as_json
    assert (options.model, options.max_calls, options.max_cost_usd, options.cache) == ("ollama/llama3", 7, 0.5, True)


def test_run_benchmark_writes_a_run_directory():
    run, report = run_benchmark("bench-unit", {"n": 2}, lambda r: Report(summary={"n": 2}, rows=[{"x": 1}]))
    reopened = Run.open(run.id)
    assert reopened.status == "finished" and reopened.config == {"n": 2} and reopened.meta["model"] == "offline"
    assert json.loads((run.dir / "report.json").read_text())["rows"] == [{"x": 1}] and report.summary == {"n": 2}
