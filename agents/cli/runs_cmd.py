"""`agent runs list|show|resume`: inspect run directories and continue killed or stopped runs."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from sandboxes.errors import UserError

from agents.cli.common import (ApiBaseOption, JsonOption, MaxCallsOption, MaxCostOption, MaxTokensOption,
                               ModelOption, cell_text, emit_report, make_console, report_table)
from agents.cli.groups import runs_app
from agents.runtime.launch import resume
from agents.runtime.run import Run, list_run_ids
from agents.runtime.summary import summarize

RootOption = Annotated[Optional[str], typer.Option("--root", help="Runs folder (default $AGENT_RUNS_DIR or ./runs).")]
RunIdArgument = Annotated[str, typer.Argument(help="Run id, a unique prefix of one, or 'last'.")]
AnswerOption = Annotated[Optional[str], typer.Option(
    "--answer", help="JSON answer to the interrupt a paused run waits on (see `agent runs show`), e.g. "
                     "'{\"budget\": 6, \"guidance\": \"...\"}'; '{}' continues unchanged.")]


@runs_app.command("list")
def list_runs(root: RootOption = None,
              limit: Annotated[int, typer.Option(help="Show the newest this many runs.")] = 20) -> None:
    """List runs, newest last: agent, status, steps, calls, cost, best result."""
    from rich.table import Table

    ids = list_run_ids(root)[-limit:]
    table = Table(caption=None if ids else "no runs yet")
    table.add_column("id", no_wrap=True, min_width=max(map(len, ids), default=2))
    for column in ("agent", "status", "model", "steps", "calls", "cost $", "best"):
        table.add_column(column)
    for run_id in ids:
        info = summarize(Run.open(run_id, root))
        table.add_row(info["id"], info["agent"], info["status"], str(info["model"]), str(info["steps"]),
                      str(info["calls"]), f"{info['cost_usd']:.4f}", cell_text(info["best"]))
    make_console().print(table)


@runs_app.command("show")
def show(run_id: RunIdArgument, root: RootOption = None) -> None:
    """Summarise one run: status, steps, cost, best result (and its report when it has one)."""
    from rich.table import Table

    run = Run.open(run_id, root)
    info = summarize(run)
    table = Table(title=f"run {run.id}", show_header=False)
    for key, value in info.items():
        if key == "steps_by_node":
            value = ", ".join(f"{node} ×{count}" for node, count in value.items()) or "none"
        table.add_row(key, cell_text(value))
    out = make_console()
    out.print(table)
    report = run.read_report()
    if report is not None:
        out.print(report_table(report, run))


@runs_app.command("resume")
def resume_run(run_id: RunIdArgument, root: RootOption = None, model: ModelOption = None,
               api_base: ApiBaseOption = None, max_cost_usd: MaxCostOption = None,
               max_tokens: MaxTokensOption = None, max_calls: MaxCallsOption = None,
               answer: AnswerOption = None, json_path: JsonOption = None) -> None:
    """Continue a killed, interrupted, failed, budget-stopped or paused run from its last checkpoint."""
    from agents.runtime.interrupts import NO_ANSWER, parse_answer

    run = Run.open(run_id, root)
    status = run.status_record()
    if status["status"] == "running":
        raise UserError(f"run {run.id} is still running (pid {status.get('pid')})")
    if status["status"] == "finished":
        raise UserError(f"run {run.id} already finished; see `agent runs show {run.id}`")
    if status["status"] == "paused" and answer is None:
        raise UserError(f"run {run.id} is paused and asks: {status.get('reason')}; answer with --answer JSON "
                        "('{}' continues unchanged)")
    overrides = {"model": model, "api_base": api_base, "max_cost_usd": max_cost_usd, "max_tokens": max_tokens,
                 "max_calls": max_calls}
    report = resume(run, overrides, answer=NO_ANSWER if answer is None else parse_answer(answer))
    emit_report(report, json_path, run)
