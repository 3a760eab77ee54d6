"""`agent bench quant`: TwinQuant against 4-bit baselines on a heavy-tailed layer and the fixture model."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from agents.cli.common import rows_benchmark
from agents.cli.groups import bench_app
from agents.cli.output import Output, with_output


@bench_app.command("quant")
@with_output
def bench_quant(steps: Annotated[int, typer.Option(help="TwinQuant steps per layer.")] = 40,
                windows: Annotated[Optional[int], typer.Option(help="Validation windows (default all).")] = None,
                *, output: Output) -> None:
    """TwinQuant against RTN, SVD+RTN and rotation+RTN at 4 bits: a heavy-tailed layer and fixture perplexity."""
    from numerics.fixture.evaluate import load_fixture
    from numerics.quant.compare import heavy_tailed_rows, quant_table

    def rows() -> list[dict]:
        synthetic = heavy_tailed_rows(steps=steps)
        return synthetic + quant_table(load_fixture(), steps=steps, windows=windows,
                                       on_row=lambda r: print(r, flush=True))

    rows_benchmark("bench-quant", {"steps": steps, "windows": windows}, rows,
                   {"quantisation": "simulated (fake-quant, fp32 evaluation)", "bits": "4-bit codes + fp16 scale/zero"},
                   "TwinQuant vs 4-bit baselines", output)
