"""`agent bench executor`: evaluations per minute on local, on Ray with one node and with two nodes (this
machine), side by side in one run, and Ray's overhead per evaluation."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from sandboxes.errors import UserError

from agents.cli.groups import bench_app
from agents.cli.output import Output, with_output


@bench_app.command("executor")
@with_output
def bench_executor(
    tasks: Annotated[str, typer.Option(help="Kernel tasks whose reference solutions are verified.")]
    = "builtin:L1:relu,softmax,gelu,sum_rows",
    target: Annotated[str, typer.Option(help="Target of the verifications (npu: simulated, runs anywhere).")] = "npu",
    repeat: Annotated[int, typer.Option(min=1, help="Times each solution is verified per leg.")] = 4,
    cpus: Annotated[int, typer.Option(min=1, help="Evaluations at a time locally, and CPUs of each Ray node.")] = 1,
    sandbox: Annotated[Optional[str], typer.Option(help="Sandbox backend every leg verifies in.")] = "local",
    *, output: Output,
) -> None:
    """Local beside Ray (1 and 2 nodes started here): evaluations per minute and Ray's overhead in ms."""
    from benchmarks.executor.ray_cluster import import_ray
    from benchmarks.executor.throughput import compare
    from benchmarks.kernels.fanout import file_job
    from benchmarks.kernels.suite import pair_solutions, solutions_dir
    from benchmarks.kernels.tasks import load_tasks
    from benchmarks.kernels.verifier.harness import EvalConfig
    from sandboxes.targets.registry import get_target

    import_ray()
    chosen = get_target(target)
    pairs = pair_solutions(load_tasks(tasks), solutions_dir("builtin:reference", target)).pairs
    if not pairs:
        raise UserError(f"no reference solution matches the tasks {tasks} on target {target}")
    jobs = [file_job(pair.task, pair.solution, chosen, EvalConfig(), True) for pair in pairs] * repeat
    output.report(compare(jobs, lambda result: result.status.value, cpus, sandbox))
