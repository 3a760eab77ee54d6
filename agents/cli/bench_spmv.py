"""`agent bench spmv`: MACKO SpMV against dense GEMV, with the C++ kernel timed in the kernel harness."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Annotated

import typer

from agents.cli.common import rows_benchmark
from agents.cli.groups import bench_app
from agents.cli.output import Output, with_output


def floats(text: str) -> list[float]:
    """``"0.5,0.1"`` -> ``[0.5, 0.1]``."""
    return [float(part) for part in text.split(",") if part.strip()]


def macko_task_variant(directory: Path, rows: int, cols: int, density: float) -> Path:
    """A copy of the built-in MACKO SpMV task with other shapes and density."""
    from benchmarks.kernels.tasks import BUILTIN_ROOT

    source = (BUILTIN_ROOT / "L1" / "macko_spmv.py").read_text()
    source = source.replace("M = 4096", f"M = {rows}").replace("K = 4096", f"K = {cols}")
    path = directory / "macko_spmv.py"
    path.write_text(source.replace("DENSITY = 0.5", f"DENSITY = {density}"))
    return path


def kernel_row(rows: int, cols: int, density: float) -> dict:
    """The hand-written C++ MACKO kernel against the task's dense fp16 GEMV, timed by the kernel harness."""
    from benchmarks.kernels.verifier.harness import EvalConfig, evaluate_file
    from benchmarks.kernels.tasks import BUILTIN_ROOT, load_task
    from sandboxes.select import get_sandbox
    from sandboxes.targets.registry import get_target

    solution = BUILTIN_ROOT.parent / "solutions" / "reference" / "cpu" / "L1__macko_spmv.py"
    with tempfile.TemporaryDirectory() as folder:
        task = load_task(macko_task_variant(Path(folder), rows, cols, density), level="L1")
        result = evaluate_file(task, solution, get_target("cpu"), sandbox=get_sandbox("local"),
                               config=EvalConfig(trials=3, timeout_s=600.0, call_timeout_s=120.0))
    if result.runtime_ms is None or result.reference_ms is None:
        return {"cpp_kernel": f"{result.status.value}: {result.reason[:200]}"}
    return {"cpp_kernel_ms": round(result.runtime_ms, 3), "harness_dense_fp16_ms": round(result.reference_ms, 3),
            "cpp_vs_dense_fp16": round(result.reference_ms / result.runtime_ms, 3)}


@bench_app.command("spmv")
@with_output
def bench_spmv(rows: Annotated[int, typer.Option(help="Matrix rows.")] = 4096,
               cols: Annotated[int, typer.Option(help="Matrix columns.")] = 4096,
               densities: Annotated[str, typer.Option(help="Comma-separated densities.")] = "0.5,0.1",
               repeats: Annotated[int, typer.Option(help="Timed calls per measurement (minimum kept).")] = 20,
               kernel: Annotated[bool, typer.Option(help="Also time the C++ kernel in the kernel harness.")] = True,
               *, output: Output) -> None:
    """MACKO SpMV against dense GEMV on the CPU (and on a GPU where one exists), as ratios from one run."""
    from numerics.sparse.bench import timing_rows

    def measure() -> list[dict]:
        table = timing_rows(rows, cols, floats(densities), repeats)
        for row in table:
            if kernel:
                row.update(kernel_row(rows, cols, row["density"]))
            print(f"density {row['density']}: " + ", ".join(f"{k} {v}" for k, v in row.items()
                                                             if k.endswith("fp16")), flush=True)
        return table

    rows_benchmark("bench-spmv", {"rows": rows, "cols": cols, "densities": densities, "repeats": repeats}, measure,
                   {"measured_on": "this machine's CPU; GPU columns say whether a GPU was present",
                    "ratio": "dense time / MACKO time (>1: MACKO faster)"},
                   f"MACKO SpMV vs dense GEMV ({rows}x{cols})", output)
