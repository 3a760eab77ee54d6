"""`agent bench lowrank`: A^3 against SVD baselines at equal parameter budgets on the fixture model."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from agents.cli.bench_spmv import floats
from agents.cli.common import rows_benchmark
from agents.cli.groups import bench_app
from agents.cli.output import Output, with_output


@bench_app.command("lowrank")
@with_output
def bench_lowrank(ratios: Annotated[str, typer.Option(help="Parameter ratios kept.")] = "0.8,0.6,0.5",
                  windows: Annotated[Optional[int], typer.Option(help="Validation windows (default all).")] = None,
                  *, output: Output) -> None:
    """A^3 against per-matrix SVD and whitened SVD at equal budgets: fixture perplexity and component errors."""
    from numerics.fixture.evaluate import load_fixture
    from numerics.lowrank.compare import lowrank_table

    rows_benchmark("bench-lowrank", {"ratios": ratios, "windows": windows},
                   lambda: lowrank_table(load_fixture(), tuple(floats(ratios)), windows=windows,
                                         on_row=lambda r: print(r, flush=True)),
                   {"model": "fixture TinyLM (2 layers, d=128)", "errors": "relative, mean over blocks"},
                   "A^3 vs SVD baselines on the fixture", output)
