"""`agent ui`: the local web dashboard over the runs folder."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from agents.cli.groups import app


@app.command("ui")
def ui(
    root: Annotated[Optional[str], typer.Option("--root", help="Runs folder (default $AGENT_RUNS_DIR or ./runs).")]
    = None,
    host: Annotated[Optional[str], typer.Option("--host", help="Address to bind (default 127.0.0.1; any other "
                                                "needs the printed token for everything).")] = None,
    port: Annotated[Optional[int], typer.Option("--port", help="Port (default 8766; 0 = a free one).")] = None,
) -> None:
    """Serve a dashboard of the runs: live runs list, run pages (graph, timeline, cost, report, agent views),
    comparisons; actions (pause, resume, guidance, budget) need the token it prints."""
    from agents.mcp.serve import stderr_line
    from agents.runtime.config import load_config
    from agents.ui.config import UiConfig
    from agents.ui.server import serve

    serve(load_config(UiConfig, "ui", {"root": root, "host": host, "port": port}), stderr_line)
