"""`agent bench evokernel`: every method on the same tasks, budget and seeds, and the memory effect; one table."""

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
TIME_BENCH_NAME = "evokernel-time"
register_agent(TIME_BENCH_NAME, "agents.evokernel.timing:execute_time_bench")


@bench_app.command("evokernel")
@with_run_options
def bench_evokernel(methods: Annotated[str, typer.Option(
                        "--methods", help="all, or a comma list of evokernel, evokernel-noq, refine, pass@k.")] = "all",
                    target: TargetOption = None, tasks: TasksOption = None, budget: BudgetOption = None,
                    memory: MemoryOption = None, workers: WorkersOption = None,
                    seeds: Annotated[int, typer.Option("--seeds", min=1, help="Runs per method, each with its own "
                                                       "seed (task order and the policy's draws).")] = 1,
                    waves: Annotated[int, typer.Option("--waves", min=1, help="Waves the shuffled tasks run in; with "
                                                       "2 or more, the memory methods also run without carrying "
                                                       "memory between waves (the memory effect).")] = 1,
                    *, options: RunOptions, output: Output) -> None:
    """Run every method on the same tasks, budget and seeds and print one comparison table."""
    from agents.evokernel.bench import bench_config, parse_methods
    from agents.evokernel.config import EvoKernelConfig

    base = load_config(EvoKernelConfig, "evokernel", {"target": target, "tasks": tasks, "budget": budget,
                                                       "memory": memory, "workers": workers})
    config = bench_config(base, parse_methods(methods), seeds=seeds, waves=waves)
    run, report = launch(BENCH_NAME, config, options, lambda _config, model: check_inputs(base, model))
    output.report(report, run)


@bench_app.command("evokernel-time")
@with_run_options
def bench_evokernel_time(target: TargetOption = None, tasks: TasksOption = None, budget: BudgetOption = None,
                         workers: WorkersOption = None,
                         rounds: Annotated[int, typer.Option("--rounds", min=1, help="Times each arm runs, in "
                                                             "alternating order.")] = 1,
                         shipped_only: Annotated[bool, typer.Option("--shipped-only", help="Time only the main "
                                                                    "job as shipped (no arm without the savings).")]
                         = False,
                         *, options: RunOptions, output: Output) -> None:
    """Time the offline main job as shipped and without its savings, side by side, with the load average
    and the CPU seconds (this process and the sandbox)."""
    from agents.evokernel.config import EvoKernelConfig
    from agents.evokernel.timing import time_config

    base = load_config(EvoKernelConfig, "evokernel", {"target": target, "tasks": tasks, "budget": budget,
                                                       "workers": workers})
    arms = ["as shipped"] if shipped_only else None
    run, report = launch(TIME_BENCH_NAME, time_config(base, rounds, arms), options,
                         lambda _config, model: check_inputs(base, model))
    output.report(report, run)
