"""`agent bench npu`: the NPU simulator's speed and its timing model's ratios, in one run."""

from __future__ import annotations

from agents.cli.common import JsonOption, emit_report
from agents.cli.groups import bench_app
from benchmarks.report import Report


@bench_app.command("npu")
def bench_npu(json_path: JsonOption = None) -> None:
    """Simulate 1M-element kernels and a 1024^3 matmul; print cycles (simulated) and wall seconds (real)."""
    from sandboxes.targets.npu.selfbench import run_selfbench

    summary, rows = run_selfbench()
    emit_report(Report(summary=summary, rows=rows, title="NPU simulator self-benchmark (cycles simulated, wall real)"),
                json_path)
