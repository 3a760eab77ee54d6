"""`agent run demo`: the smallest agent, end to end (two nodes, one model call, one tool call)."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from agents.cli.common import with_run_options
from agents.cli.groups import run_app
from agents.cli.output import Output
from agents.runtime.config import load_config
from agents.runtime.launch import RunOptions, launch
from agents.runtime.registry import register_agent

register_agent("demo", "agents.demo.graph:execute")


@run_app.command("demo")
@with_run_options
def demo(question: Annotated[Optional[str], typer.Option(help="The arithmetic question to answer.")] = None,
         step_delay: Annotated[Optional[float], typer.Option(
             "--step-delay", min=0, help="Seconds each node waits first (to watch or interrupt a run).")] = None,
         *, options: RunOptions, output: Output) -> None:
    """Answer an arithmetic question with one model call and one calculator call (offline without a model)."""
    from agents.demo.config import DemoConfig

    config = load_config(DemoConfig, "demo", {"question": question, "step_delay_s": step_delay})
    run, report = launch("demo", config, options)
    output.report(report, run)
