"""`agent bench ui`: the dashboard's runs list over many runs beside `agent runs list` reading the same runs."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Annotated

import typer

from agents.cli.groups import bench_app
from agents.cli.output import Output, with_output

LABELS = {"runs": "runs", "load_average_before": "load average (1 min) before",
          "agent_runs_list_s": "`agent runs list --limit N --json` (s)",
          "api_runs_cold_s": "dashboard GET /api/runs, first (s)",
          "api_runs_warm_s": "dashboard GET /api/runs, again (s)",
          "page_runs_list_s": "page in Chromium, navigation start to N rows shown, each load (s)",
          "page_driver_s": "the same loads as the driver saw them, from asking for the page (s)",
          "page_median_s": "page, median load (s)", "page_median_over_command": "page median / `agent runs list` time",
          "load_average_after": "load average (1 min) after"}


@bench_app.command("ui")
@with_output
def bench_ui(runs: Annotated[int, typer.Option("--runs", min=2, help="Runs to serve.")] = 200,
             repeats: Annotated[int, typer.Option("--repeats", min=1, help="Page loads to time.")] = 5,
             *, output: Output) -> None:
    """Serve RUNS runs (copies of two real demo runs, in a temporary folder) and time the dashboard's runs list
    (its API cold and warm, and REPEATS loads of the page in headless Chromium when there is one, each with the
    browser's cache off) beside `agent runs list`, with the load average before and after."""
    from agents.ui.bench import measure

    with tempfile.TemporaryDirectory(prefix="agent-bench-ui-") as folder:
        root = Path(folder) / "runs"
        root.mkdir()
        result = measure(root, runs, repeats)

    def show(console) -> None:
        from rich.table import Table

        table = Table(title=f"agent ui over {result['runs']} runs")
        table.add_column("measure")
        table.add_column("value", justify="right")
        for key, label in LABELS.items():
            value = result[key]
            shown = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
            table.add_row(label, "no Chromium/Playwright here" if value is None else shown)
        console.print(table)

    output.document(result, show)
