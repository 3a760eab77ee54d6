"""`agent run pathwise` (PathWise and its baselines) and `agent bench ahd` / `agent bench ahd-speed`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from agents.cli.common import JsonOption, emit_report, with_run_options
from agents.cli.groups import bench_app, run_app
from agents.pathwise.context import PathWiseConfig
from agents.runtime.config import load_config
from agents.runtime.launch import RunOptions, launch
from agents.runtime.registry import register_lazy
from benchmarks.ahd.bench import baseline_report, speed_evaluator, speed_report
from benchmarks.ahd.evaluator import Evaluator, EvaluatorConfig
from benchmarks.ahd.registry import PROBLEMS, get_problem
from sandboxes.errors import UserError

AGENT = "pathwise"
execute = register_lazy(AGENT, "agents.pathwise.agent:execute")

ProblemOption = Annotated[Optional[str], typer.Option("--problem", help=f"One of: {', '.join(PROBLEMS)}.")]


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
    *, options: RunOptions, json_path: Optional[Path]) -> None:
    """Design a heuristic for an AHD problem; writes the best heuristic, gaps, plots and the graph."""
    flags = {"problem": problem, "method": method, "budget": budget, "population": population,
             "initial_population": initial_population, "actions": actions, "rollouts": rollouts,
             "inner_steps": inner_steps, "seed": seed, "workers": workers, "test": test}
    config = load_config(PathWiseConfig, "pathwise", flags)
    get_problem(config.problem)
    run, report = launch(AGENT, config, options, execute)
    emit_report(report, json_path, run)


@bench_app.command("ahd")
def bench_ahd(problem: ProblemOption = None,
              baselines: Annotated[bool, typer.Option("--baselines", help="Evaluate the classic baselines.")] = False,
              split: Annotated[str, typer.Option(help="test or train.")] = "test",
              json_path: JsonOption = None) -> None:
    """The classic baselines' gaps on the AHD test sets (one row per method and size)."""
    if not baselines:
        raise UserError("nothing to benchmark: pass --baselines")
    names = [problem] if problem else list(PROBLEMS)
    for name in names:
        chosen = get_problem(name)
        report = baseline_report(chosen, Evaluator(chosen, split, EvaluatorConfig(wall_s=600.0)))
        emit_report(report, json_path if len(names) == 1 else None)


@bench_app.command("ahd-speed")
def bench_ahd_speed(repeats: Annotated[int, typer.Option(help="Timed repetitions.")] = 3,
                    json_path: JsonOption = None) -> None:
    """Seconds to evaluate best fit on the 5k-item bin-packing test sets, compute vs sandbox start-up."""
    emit_report(speed_report(speed_evaluator(), repeats), json_path)
