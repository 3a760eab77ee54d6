"""`agent bench rpg`: encoder performance on a real code base (full build, one-file update, search)."""

from __future__ import annotations

import importlib.util
import tempfile
from pathlib import Path
from typing import Annotated, Optional

import typer

from benchmarks.report import Report
from sandboxes.errors import UserError

from agents.cli.common import JsonOption, emit_report
from agents.cli.groups import bench_app
from agents.rpg.perf import measure

DEFAULT_PACKAGE = "networkx"


def default_code_base() -> Path:
    """An installed mid-sized pure-Python package (networkx, about 190k lines)."""
    spec = importlib.util.find_spec(DEFAULT_PACKAGE)
    if spec is None or not spec.origin:
        raise UserError(f"{DEFAULT_PACKAGE} is not installed; pass --path DIR of a Python code base")
    return Path(spec.origin).parent


@bench_app.command("rpg")
def bench_rpg(path: Annotated[Optional[Path], typer.Option("--path", help="Python code base (default: networkx).")] = None,
              queries: Annotated[int, typer.Option("--queries", help="search_node queries to time.")] = 100,
              json_path: JsonOption = None) -> None:
    """Full offline build (lines/s), incremental update after a one-file change (fraction of the full
    build, checked equal to a rebuild) and search_node latency, measured side by side."""
    source = (path or default_code_base()).resolve()
    if not source.is_dir():
        raise UserError(f"not a directory: {source}")
    with tempfile.TemporaryDirectory(prefix="rpg-bench-") as scratch:
        summary, rows = measure(source, Path(scratch), queries=queries)
    emit_report(Report(summary=summary, rows=rows, title="RPG encoder performance"), json_path)
