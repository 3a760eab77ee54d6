"""`agent bench ui`: the dashboard's runs list over many runs beside `agent runs list` reading the same runs."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Annotated

import typer

from agents.cli.groups import bench_app
from agents.cli.output import Output, with_output

LABELS = {"runs": "runs", "agent_runs_list_s": "`agent runs list --limit N --json` (s)",
          "api_runs_cold_s": "dashboard GET /api/runs, first (s)", "api_runs_warm_s": "dashboard GET /api/runs, again (s)",
          "page_runs_list_s": "dashboard page in Chromium, open to N rows shown (s)",
          "page_over_command": "page time / `agent runs list` time"}


@bench_app.command("ui")
@with_output
def bench_ui(runs: Annotated[int, typer.Option("--runs", min=2, help="Runs to serve.")] = 200,
             *, output: Output) -> None:
    """Serve RUNS runs (copies of two real demo runs, in a temporary folder) and time the dashboard's runs list
    (its API cold and warm, and the page in headless Chromium when there is one) beside `agent runs list`."""
    from agents.ui.bench import measure

    with tempfile.TemporaryDirectory(prefix="agent-bench-ui-") as folder:
        root = Path(folder) / "runs"
        root.mkdir()
        result = measure(root, runs)

    def show(console) -> None:
        from rich.table import Table

        table = Table(title=f"agent ui over {result['runs']} runs")
        table.add_column("measure")
        table.add_column("value", justify="right")
        for key, label in LABELS.items():
            value = result[key]
            table.add_row(label, "no Chromium/Playwright here" if value is None else str(value))
        console.print(table)

    output.document(result, show)
