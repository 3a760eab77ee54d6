"""`agent bench verifier`: the verifier's own cost beside the previous checks', or the precision check's margins."""

from __future__ import annotations

import sys
from typing import Annotated, Optional

import typer

from benchmarks.kernels.suite import pair_solutions, solutions_dir
from benchmarks.kernels.tasks import load_tasks
from benchmarks.kernels.verifier.cost import measure_cost, precision_table
from benchmarks.kernels.verifier.harness import EvalConfig
from sandboxes.errors import UserError
from sandboxes.targets.registry import TARGETS, get_target

from agents.cli.groups import bench_app
from agents.cli.output import Output, with_output
from agents.runtime.run import Run


@bench_app.command("verifier")
@with_output
def bench_verifier(
    target: Annotated[str, typer.Option(help=f"One of {', '.join(TARGETS)}.")] = "cpu",
    tasks: Annotated[str, typer.Option(help="builtin, builtin:L1, builtin:L1:relu,soft*, a KernelBench folder.")]
    = "builtin",
    solutions: Annotated[str, typer.Option(help="A folder or builtin:reference / builtin:accepted.")]
    = "builtin:reference",
    jobs: Annotated[int, typer.Option(help="Evaluations at a time (1: the cleanest per-evaluation times).")] = 1,
    trials: Annotated[int, typer.Option(help="Correctness trials with fresh inputs.")] = 5,
    timing_budget: Annotated[float, typer.Option(help="Seconds of timing per solution.")] = 3.0,
    sandbox: Annotated[Optional[str], typer.Option(help="Sandbox backend: auto, local or docker.")] = None,
    precision: Annotated[bool, typer.Option(help="Instead of the cost: each solution's error against float64 "
                                                 "beside the bound the precision check allows.")] = False,
    *, output: Output,
) -> None:
    """Solutions per minute with the current checks and with the previous ones, side by side in one run."""
    from sandboxes.select import get_sandbox

    chosen = get_target(target)
    matching = pair_solutions(load_tasks(tasks), solutions_dir(solutions, target))
    for line in matching.warnings():
        print(line, file=sys.stderr)
    if not matching.pairs:
        raise UserError(f"no solution in {solutions} matches the tasks {tasks}")
    config = EvalConfig(trials=trials, timing_budget_s=timing_budget)
    run = Run.create("bench-verifier", {"target": target, "tasks": tasks, "solutions": solutions, "jobs": jobs,
                                        "precision": precision, "evaluation": config.model_dump()})
    with run.active():
        measure = precision_table if precision else measure_cost
        report = measure(matching.pairs, chosen, get_sandbox(sandbox), config, jobs)
        run.write_report(report)
    output.report(report, run)
