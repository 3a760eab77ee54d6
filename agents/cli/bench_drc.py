"""`agent bench drc`, `agent bench drc-speed` and `agent run splittester`."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from agents.cli.common import JsonOption, emit_report, with_run_options
from agents.cli.groups import bench_app, run_app
from agents.runtime.config import load_config
from agents.runtime.launch import RunOptions, launch
from agents.runtime.registry import register_lazy
from agents.splittester.config import SplitTesterConfig
from benchmarks.drc.harness import bench_report, load_decks, speed_report
from benchmarks.drc.suite import load_suite, select_tasks
from tools.drc.runner import DrcRunner

AGENT = "splittester"
execute = register_lazy(AGENT, "agents.splittester.agent:execute")


TasksOption = Annotated[str, typer.Option(
    "--tasks", help="builtin (all 120 tasks), builtin:N (a seeded subset), or comma-separated task ids/families.")]
SandboxOption = Annotated[Optional[str], typer.Option(
    "--sandbox", help="Sandbox backend for klayout: auto, docker or local (default $AGENT_SANDBOX or auto).")]


def _runner(sandbox: str | None) -> DrcRunner:
    from sandboxes.select import get_sandbox

    return DrcRunner(get_sandbox(sandbox))


@bench_app.command("drc")
def bench_drc(tasks: TasksOption = "builtin",
              decks: Annotated[str, typer.Option("--decks", help="gold, or a directory of <task id>.drc decks.")] = "gold",
              sandbox: SandboxOption = None, json_path: JsonOption = None) -> None:
    """Score DRC decks on the Rule2DRC suite: success needs every layout to run, no unknown category, F1 = 1."""
    chosen = select_tasks(load_suite(), tasks)
    emit_report(bench_report(chosen, load_decks(chosen, decks), _runner(sandbox), decks), json_path)


@bench_app.command("drc-speed")
def bench_drc_speed(task: Annotated[str, typer.Option(help="Task id whose gold deck is timed.")] = "width_space_area-00",
                    layouts: Annotated[int, typer.Option(help="Layouts in the batch run.")] = 200,
                    single: Annotated[int, typer.Option(help="Layouts run one klayout process each.")] = 10,
                    sandbox: SandboxOption = None, json_path: JsonOption = None) -> None:
    """Layouts per second for one deck: the batch runner against one klayout process per layout."""
    chosen = select_tasks(load_suite(), task)[0]
    emit_report(speed_report(chosen, _runner(sandbox), layouts, single), json_path)


@run_app.command("splittester")
@with_run_options
def run_splittester(
    tasks: Annotated[Optional[str], typer.Option(help="builtin, builtin:N, or task ids/families.")] = None,
    n: Annotated[Optional[int], typer.Option("--n", help="Candidate decks per task.")] = None,
    rounds: Annotated[Optional[int], typer.Option(help="Split rounds per task.")] = None,
    test_layouts: Annotated[Optional[int], typer.Option(help="Layouts asked of the first test script.")] = None,
    reference: Annotated[Optional[bool], typer.Option("--reference/--no-reference",
                                                      help="Include the DRC reference digest.")] = None,
    seed: Annotated[Optional[int], typer.Option(help="Seed of random choices.")] = None,
    sandbox: SandboxOption = None,
    *, options: RunOptions, json_path: Optional[Path]) -> None:
    """Synthesize N DRC decks per task and pick one with every selector; pass@1, BoN success, rates, cost."""
    flags = {"tasks": tasks, "n": n, "rounds": rounds, "test_layouts": test_layouts, "reference": reference,
             "seed": seed, "sandbox": sandbox}
    config = load_config(SplitTesterConfig, "splittester", flags)
    select_tasks(load_suite(), config.tasks)
    run, report = launch(AGENT, config, options, execute)
    emit_report(report, json_path, run)
