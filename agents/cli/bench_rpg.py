"""`agent bench rpg`: encoder performance on a real code base (full build, one-file update, search)."""

from __future__ import annotations

import importlib.util
import tempfile
from pathlib import Path
from typing import Annotated, Optional

import typer

from benchmarks.report import Report
from sandboxes.errors import UserError

from agents.cli.common import run_benchmark
from agents.cli.groups import bench_app
from agents.cli.output import Output, with_output

DEFAULT_PACKAGE = "networkx"


def default_code_base() -> Path:
    """An installed mid-sized pure-Python package (networkx, about 190k lines)."""
    spec = importlib.util.find_spec(DEFAULT_PACKAGE)
    if spec is None or not spec.origin:
        raise UserError(f"{DEFAULT_PACKAGE} is not installed; pass --path DIR of a Python code base")
    return Path(spec.origin).parent


@bench_app.command("rpg")
@with_output
def bench_rpg(path: Annotated[Optional[Path], typer.Option("--path", help="Python code base (default: networkx).")] = None,
              queries: Annotated[int, typer.Option("--queries", help="search_node queries to time.")] = 100,
              *, output: Output) -> None:
    """Full offline build (lines/s), incremental update after a one-file change (fraction of the full
    build, checked equal to a rebuild) and search_node latency, measured side by side."""
    from agents.rpg.perf import measure

    source = (path or default_code_base()).resolve()
    if not source.is_dir():
        raise UserError(f"not a directory: {source}")

    def bench(run) -> Report:
        with tempfile.TemporaryDirectory(prefix="rpg-bench-") as scratch:
            summary, rows = measure(source, Path(scratch), queries=queries)
        return Report(summary=summary, rows=rows, title="RPG encoder performance")

    run, report = run_benchmark("bench-rpg", {"path": str(source), "queries": queries}, bench)
    output.report(report, run)
