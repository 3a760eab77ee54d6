"""`agent runs list|show|resume`: inspect run directories and continue killed or stopped runs."""

from __future__ import annotations

import shlex
from typing import Annotated, Any, Optional

import typer

from sandboxes.errors import UserError

from agents.cli.common import ApiBaseOption, MaxCallsOption, MaxCostOption, MaxTokensOption, ModelOption
from agents.cli.groups import runs_app
from agents.cli.output import Output, with_output
from agents.cli.tables import cell_text, report_table
from agents.runtime.registry import registered_agents
from agents.runtime.run import Run, list_run_ids
from agents.runtime.summary import summarize

RootOption = Annotated[Optional[str], typer.Option("--root", help="Runs folder (default $AGENT_RUNS_DIR or ./runs).")]
RunIdArgument = Annotated[str, typer.Argument(help="Run id, a unique prefix of one, or 'last'.")]
AnswerOption = Annotated[Optional[str], typer.Option(
    "--answer", help="JSON answer to the interrupt a paused run waits on (see `agent runs show`), e.g. "
                     "'{\"budget\": 6, \"guidance\": \"...\"}'; '{}' continues unchanged.")]
LIST_COLUMNS = ("agent", "status", "model", "steps", "calls", "cost_usd", "best")


@runs_app.command("list")
@with_output
def list_runs(root: RootOption = None,
              limit: Annotated[int, typer.Option(min=1, help="Show the newest this many runs.")] = 20,
              *, output: Output) -> None:
    """List runs, newest last: agent, status, steps, calls, cost, best result (a damaged run says why)."""
    rows = [_list_row(run_id, root) for run_id in list_run_ids(root)[-limit:]]
    output.document({"runs": rows}, lambda console: console.print(_list_table(rows)))


def _list_row(run_id: str, root: str | None) -> dict[str, Any]:
    """One run's summary; a run that cannot be read gives its id, status 'unreadable' and the reason."""
    try:
        info = summarize(Run.open(run_id, root))
    except UserError as error:
        return {"id": run_id, "status": "unreadable", "reason": str(error)}
    return {"id": info["id"], **{key: info[key] for key in LIST_COLUMNS}, "cost_known": info["cost_known"],
            "reason": info["reason"]}


def _list_table(rows: list[dict[str, Any]]) -> Any:
    from rich.table import Table
    from rich.text import Text

    table = Table(caption=None if rows else "no runs yet")
    table.add_column("id", no_wrap=True)
    for column in LIST_COLUMNS:
        table.add_column("cost $" if column == "cost_usd" else column)
    for row in rows:
        if row["status"] == "unreadable":
            table.add_row(Text(row["id"]), "—", "unreadable", Text(cell_text(row["reason"])), "", "", "", "")
            continue
        cost = f"{row['cost_usd']:.4f}" if row["cost_known"] else "unknown"
        table.add_row(Text(row["id"]), *(Text(cell_text(row[c])) for c in LIST_COLUMNS[:-2]), cost,
                      Text(cell_text(row["best"])))
    return table


@runs_app.command("show")
@with_output
def show(run_id: RunIdArgument, root: RootOption = None, *, output: Output) -> None:
    """Summarise one run: status, steps, cost, best result (and its report when it has one)."""
    run = Run.open(run_id, root)
    info = summarize(run)
    report = run.read_report()
    data = {**info, "report": report.to_dict() if report else None}
    output.document(data, lambda console: _show(console, run, info, report))


def _show(console: Any, run: Run, info: dict[str, Any], report: Any) -> None:
    from rich.table import Table
    from rich.text import Text

    table = Table(title=f"run {run.id}", show_header=False)
    for key, value in info.items():
        if key == "steps_by_node":
            value = ", ".join(f"{node} ×{count}" for node, count in value.items()) or "none"
        table.add_row(key, Text(cell_text(value, limit=200)))
    console.print(table)
    if report is not None:
        console.print(report_table(report, run))


@runs_app.command("resume")
@with_output
def resume_run(run_id: RunIdArgument, root: RootOption = None, model: ModelOption = None,
               api_base: ApiBaseOption = None, max_cost_usd: MaxCostOption = None,
               max_tokens: MaxTokensOption = None, max_calls: MaxCallsOption = None,
               answer: AnswerOption = None, *, output: Output) -> None:
    """Continue a killed, interrupted, failed, budget-stopped or paused run from its last checkpoint."""
    from agents.runtime.interrupts import NO_ANSWER, parse_answer
    from agents.runtime.launch import resume

    run = Run.open(run_id, root)
    status = run.status_record()
    if run.agent.startswith("bench-") and run.agent not in registered_agents():  # bench kernels and kin: no checkpoints
        command = shlex.join(["agent", *run.meta.get("argv", [])])
        raise UserError(f"run {run.id} ({run.agent}) does not resume: a benchmark keeps no checkpoints; run it "
                        f"again: {command}")
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
    output.report(report, run)
