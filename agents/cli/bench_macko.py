"""`agent bench macko`: MACKO storage bytes by density against dense fp16 and CSR."""

from __future__ import annotations

from typing import Annotated

import typer

from agents.cli.bench_spmv import floats
from agents.cli.common import rows_benchmark
from agents.cli.groups import bench_app
from agents.cli.output import Output, with_output


@bench_app.command("macko")
@with_output
def bench_macko(rows: Annotated[int, typer.Option(help="Matrix rows.")] = 4096,
                cols: Annotated[int, typer.Option(help="Matrix columns.")] = 4096,
                densities: Annotated[str, typer.Option(help="Comma-separated densities.")]
                = "0.9,0.7,0.5,0.3,0.2,0.1,0.05",
                *, output: Output) -> None:
    """MACKO storage by density: exact bytes against dense fp16 and CSR on uniformly random sparsity."""
    from numerics.sparse.storage import density_table

    rows_benchmark("bench-macko", {"rows": rows, "cols": cols, "densities": densities},
                   lambda: density_table(tuple(floats(densities)), rows, cols),
                   {"format": "fp16 values + 4-bit gaps + int32 row pointers, rows padded to 8 entries",
                    "csr": "fp16 values + int32 column indices + int32 row pointers"},
                   f"MACKO storage by density ({rows}x{cols})", output)
