"""`agent bench qmemory`: retrieval latency over a large Q-memory, postings index vs brute-force dense."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from agents.cli.common import emit_report
from agents.cli.groups import bench_app


@bench_app.command("qmemory")
def bench_qmemory(entries: Annotated[int, typer.Option(help="Memory entries to fill.")] = 100_000,
                  queries: Annotated[int, typer.Option(help="Timed retrievals per index and condition.")] = 200,
                  load: Annotated[bool, typer.Option(
                      "--load", help="Measure again while one CPU-burning process runs.")] = False,
                  json_path: Annotated[Optional[Path], typer.Option("--json", help="Write the report here.")] = None
                  ) -> None:
    """Full retrievals (embed, recall, Q lookup, epsilon-greedy, fetch): p50/p95 per query of the postings
    index and of the brute-force dense product it replaced, side by side, quiet and (--load) loaded."""
    from memory.qmemory.bench import run_retrieval_benchmark
    from sandboxes.errors import UserError

    if entries < 1 or queries < 1:
        raise UserError("--entries and --queries must be at least 1")
    emit_report(run_retrieval_benchmark(entries, queries, load=load), json_path)
