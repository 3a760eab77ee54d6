"""`agent bench evokernel`: every method on the same tasks and budget, one comparison table."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from agents.cli.common import with_run_options
from agents.cli.groups import bench_app
from agents.cli.output import Output
from agents.cli.run_evokernel import (BudgetOption, MemoryOption, TargetOption, TasksOption, WorkersOption,
                                      check_inputs)
from agents.runtime.config import load_config
from agents.runtime.launch import RunOptions, launch
from agents.runtime.registry import register_agent

BENCH_NAME = "evokernel-bench"
register_agent(BENCH_NAME, "agents.evokernel.bench:execute_bench")


@bench_app.command("evokernel")
@with_run_options
def bench_evokernel(methods: Annotated[str, typer.Option(
                        "--methods", help="all, or a comma list of evokernel, evokernel-noq, refine, pass@k.")] = "all",
                    target: TargetOption = None, tasks: TasksOption = None, budget: BudgetOption = None,
                    memory: MemoryOption = None, workers: WorkersOption = None,
                    *, options: RunOptions, output: Output) -> None:
    """Run every method on the same tasks and budget and print one comparison table."""
    from agents.evokernel.bench import bench_config, parse_methods
    from agents.evokernel.config import EvoKernelConfig

    base = load_config(EvoKernelConfig, "evokernel", {"target": target, "tasks": tasks, "budget": budget,
                                                       "memory": memory, "workers": workers})
    config = bench_config(base, parse_methods(methods))
    run, report = launch(BENCH_NAME, config, options, lambda _config, model: check_inputs(base, model))
    output.report(report, run)
