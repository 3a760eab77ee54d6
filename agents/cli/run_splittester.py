"""`agent run splittester`: N DRC decks per task, one picked by every selector with generated test layouts."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from agents.cli.bench_drc import SandboxOption
from agents.cli.common import with_run_options
from agents.cli.groups import run_app
from agents.cli.output import Output
from agents.runtime.config import load_config
from agents.runtime.launch import RunOptions, launch
from agents.runtime.registry import register_agent

AGENT = "splittester"
register_agent(AGENT, "agents.splittester.agent:execute")


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
    *, options: RunOptions, output: Output) -> None:
    """Synthesize N DRC decks per task and pick one with every selector; pass@1, BoN success, rates, cost."""
    from agents.splittester.config import SplitTesterConfig
    from benchmarks.drc.suite import load_suite, select_tasks

    flags = {"tasks": tasks, "n": n, "rounds": rounds, "test_layouts": test_layouts, "reference": reference,
             "seed": seed, "sandbox": sandbox}
    config = load_config(SplitTesterConfig, "splittester", flags)
    select_tasks(load_suite(), config.tasks)
    run, report = launch(AGENT, config, options)
    output.report(report, run)
