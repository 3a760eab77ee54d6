"""`agent bench spmv`, `agent bench macko`, `agent bench lowrank`, `agent bench quant`: the compression
toolbox's measurements, each a table in one run."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Annotated, Callable, Optional

import typer

from benchmarks.report import Report

from agents.cli.common import JsonOption, emit_report
from agents.cli.groups import bench_app
from agents.runtime.run import Run


def _bench(name: str, config: dict, rows: Callable[[], list[dict]], summary: dict, title: str,
           json_path: Optional[Path]) -> None:
    import torch

    torch.set_num_threads(1)
    run = Run.create(name, config)
    with run.active():
        report = Report(summary=summary, rows=rows(), title=title)
        run.write_report(report)
    emit_report(report, json_path, run)


def _floats(text: str) -> list[float]:
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
def bench_spmv(rows: Annotated[int, typer.Option(help="Matrix rows.")] = 4096,
               cols: Annotated[int, typer.Option(help="Matrix columns.")] = 4096,
               densities: Annotated[str, typer.Option(help="Comma-separated densities.")] = "0.5,0.1",
               repeats: Annotated[int, typer.Option(help="Timed calls per measurement (minimum kept).")] = 20,
               kernel: Annotated[bool, typer.Option(help="Also time the C++ kernel in the kernel harness.")] = True,
               json_path: JsonOption = None) -> None:
    """MACKO SpMV against dense GEMV on the CPU (and on a GPU where one exists), as ratios from one run."""
    from numerics.sparse.bench import timing_rows

    def measure() -> list[dict]:
        table = timing_rows(rows, cols, _floats(densities), repeats)
        for row in table:
            if kernel:
                row.update(kernel_row(rows, cols, row["density"]))
            print(f"density {row['density']}: " + ", ".join(f"{k} {v}" for k, v in row.items()
                                                             if k.endswith("fp16")), flush=True)
        return table

    _bench("bench-spmv", {"rows": rows, "cols": cols, "densities": densities, "repeats": repeats}, measure,
           {"measured_on": "this machine's CPU; GPU columns say whether a GPU was present",
            "ratio": "dense time / MACKO time (>1: MACKO faster)"},
           f"MACKO SpMV vs dense GEMV ({rows}x{cols})", json_path)


@bench_app.command("macko")
def bench_macko(rows: Annotated[int, typer.Option(help="Matrix rows.")] = 4096,
                cols: Annotated[int, typer.Option(help="Matrix columns.")] = 4096,
                densities: Annotated[str, typer.Option(help="Comma-separated densities.")]
                = "0.9,0.7,0.5,0.3,0.2,0.1,0.05",
                json_path: JsonOption = None) -> None:
    """MACKO storage by density: exact bytes against dense fp16 and CSR on uniformly random sparsity."""
    from numerics.sparse.storage import density_table

    _bench("bench-macko", {"rows": rows, "cols": cols, "densities": densities},
           lambda: density_table(tuple(_floats(densities)), rows, cols),
           {"format": "fp16 values + 4-bit gaps + int32 row pointers, rows padded to 8 entries",
            "csr": "fp16 values + int32 column indices + int32 row pointers"},
           f"MACKO storage by density ({rows}x{cols})", json_path)


@bench_app.command("lowrank")
def bench_lowrank(ratios: Annotated[str, typer.Option(help="Parameter ratios kept.")] = "0.8,0.6,0.5",
                  windows: Annotated[Optional[int], typer.Option(help="Validation windows (default all).")] = None,
                  json_path: JsonOption = None) -> None:
    """A^3 against per-matrix SVD and whitened SVD at equal budgets: fixture perplexity and component errors."""
    from numerics.fixture.evaluate import load_fixture
    from numerics.lowrank.compare import lowrank_table

    _bench("bench-lowrank", {"ratios": ratios, "windows": windows},
           lambda: lowrank_table(load_fixture(), tuple(_floats(ratios)), windows=windows,
                                 on_row=lambda r: print(r, flush=True)),
           {"model": "fixture TinyLM (2 layers, d=128)", "errors": "relative, mean over blocks"},
           "A^3 vs SVD baselines on the fixture", json_path)


@bench_app.command("quant")
def bench_quant(steps: Annotated[int, typer.Option(help="TwinQuant steps per layer.")] = 40,
                windows: Annotated[Optional[int], typer.Option(help="Validation windows (default all).")] = None,
                json_path: JsonOption = None) -> None:
    """TwinQuant against RTN, SVD+RTN and rotation+RTN at 4 bits: a heavy-tailed layer and fixture perplexity."""
    from numerics.fixture.evaluate import load_fixture
    from numerics.quant.compare import heavy_tailed_rows, quant_table

    def rows() -> list[dict]:
        synthetic = heavy_tailed_rows(steps=steps)
        return synthetic + quant_table(load_fixture(), steps=steps, windows=windows,
                                       on_row=lambda r: print(r, flush=True))

    _bench("bench-quant", {"steps": steps, "windows": windows}, rows,
           {"quantisation": "simulated (fake-quant, fp32 evaluation)", "bits": "4-bit codes + fp16 scale/zero"},
           "TwinQuant vs 4-bit baselines", json_path)
