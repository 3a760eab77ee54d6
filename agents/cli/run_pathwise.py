"""`agent run pathwise`: PathWise (or a baseline search) designs a heuristic for an AHD problem."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from agents.cli.common import with_run_options
from agents.cli.executor_options import ExecutorOption
from agents.cli.groups import run_app
from agents.cli.output import Output
from agents.runtime.config import load_config
from agents.runtime.launch import RunOptions, launch
from agents.runtime.registry import register_agent

AGENT = "pathwise"
register_agent(AGENT, "agents.pathwise.agent:execute")

ProblemOption = Annotated[Optional[str], typer.Option(
    "--problem", help="An AHD problem: bpp_online, tsp_construct, ... (an unknown name lists them all).")]


@run_app.command("pathwise")
@with_run_options
def run_pathwise(
    problem: ProblemOption = None,
    method: Annotated[Optional[str], typer.Option(help="pathwise, eoh (EoH-style evolution) or random.")] = None,
    budget: Annotated[Optional[int], typer.Option(help="Heuristic evaluations for the whole run.")] = None,
    population: Annotated[Optional[int], typer.Option(help="Population size.")] = None,
    initial_population: Annotated[Optional[int], typer.Option(help="Heuristics sampled first.")] = None,
    actions: Annotated[Optional[int], typer.Option(help="Policy actions per inner step.")] = None,
    rollouts: Annotated[Optional[int], typer.Option(help="World-model rollouts per action.")] = None,
    inner_steps: Annotated[Optional[int], typer.Option(help="Inner steps per round.")] = None,
    seed: Annotated[Optional[int], typer.Option(help="Random seed of the search.")] = None,
    workers: Annotated[Optional[int], typer.Option(help="Candidates evaluated in parallel.")] = None,
    test: Annotated[Optional[bool], typer.Option("--test/--no-test", help="Score the best on the test sets.")] = None,
    executor: ExecutorOption = None, *, options: RunOptions, output: Output) -> None:
    """Design a heuristic for an AHD problem; writes the best heuristic, gaps, plots and the graph."""
    from agents.pathwise.context import PathWiseConfig
    from benchmarks.ahd.registry import get_problem
    from benchmarks.executor import check_spec

    flags = {"problem": problem, "method": method, "budget": budget, "population": population,
             "initial_population": initial_population, "actions": actions, "rollouts": rollouts,
             "inner_steps": inner_steps, "seed": seed, "workers": workers, "test": test,
             "executor": executor}
    config = load_config(PathWiseConfig, "pathwise", flags)
    get_problem(config.problem)
    check_spec(config.executor)
    run, report = launch(AGENT, config, options)
    output.report(report, run)
