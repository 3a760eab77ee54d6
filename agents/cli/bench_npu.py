"""`agent bench npu`: the NPU simulator's speed and its timing model's ratios, in one run."""

from __future__ import annotations

from agents.cli.common import run_benchmark
from agents.cli.groups import bench_app
from agents.cli.output import Output, with_output
from benchmarks.report import Report


@bench_app.command("npu")
@with_output
def bench_npu(*, output: Output) -> None:
    """Simulate 1M-element kernels and a 1024^3 matmul; print cycles (simulated) and wall seconds (real)."""
    from sandboxes.targets.npu.selfbench import run_selfbench

    def measure(run) -> Report:
        summary, rows = run_selfbench()
        return Report(summary=summary, rows=rows, title="NPU simulator self-benchmark (cycles simulated, wall real)")

    run, report = run_benchmark("bench-npu", {}, measure)
    output.report(report, run)
