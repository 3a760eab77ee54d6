import json
import sys

import pytest
import typer

from benchmarks.report import Report

from agents.cli.output import EXIT_CODES, Output, with_output
from agents.runtime.run import Run


def test_tables_by_default_and_a_json_file_beside_them(tmp_path, capsys):
    report = Report(summary={"best": 0.25, "policy": "offline policy: greedy"},
                    rows=[{"case": "a", "score": 0.25}, {"case": "b", "score": None}], title="unit")
    Output(json_out=tmp_path / "out" / "report.json").report(report)
    out = capsys.readouterr().out
    for fragment in ("unit", "offline policy: greedy", "case", "score", "0.25", "2 rows", "JSON written to"):
        assert fragment in out
    assert json.loads((tmp_path / "out" / "report.json").read_text()) == report.to_dict()


def test_json_flag_prints_only_json_on_stdout_and_moves_other_output_to_stderr(capsys):
    @with_output
    def command(*, output):
        print("progress line")
        output.document({"a": [1, 2]}, lambda console: console.print("table"))

    command(as_json=True, json_out=None)
    captured = capsys.readouterr()
    assert json.loads(captured.out) == {"a": [1, 2]} and "progress line" in captured.err
    assert "table" not in captured.out + captured.err


@pytest.mark.parametrize("status", sorted(EXIT_CODES))
def test_a_stopped_or_paused_run_exits_with_its_code(status, capsys):
    run = Run.create("unit", {})
    run.set_status(status, "why")
    with pytest.raises(typer.Exit) as stop:
        Output(as_json=True, stdout=sys.stdout).report(Report(summary={"status": status}), run)
    assert stop.value.exit_code == EXIT_CODES[status]
    document = json.loads(capsys.readouterr().out)
    assert document["run"] == {"id": run.id, "dir": str(run.dir), "status": status}
