"""What every `agent run`/`agent bench` command shares: run options, the --json flag and report output."""

from __future__ import annotations

import functools
import inspect
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Callable, Optional

import typer

from benchmarks.report import Report

from agents.runtime.config import load_config
from agents.runtime.launch import RunOptions

if TYPE_CHECKING:
    from agents.runtime.run import Run

ModelOption = Annotated[Optional[str], typer.Option(
    "--model", help="Model: provider/name (openai/gpt-4o-mini, anthropic/..., ollama/...), replay:FILE, "
                    "scripted:FILE or offline. Default: $AGENT_MODEL, then run.model in agentkiln.toml, then a provider "
                    "key, else the agent's offline policy.")]
ApiBaseOption = Annotated[Optional[str], typer.Option(
    "--api-base", help="Base URL of an OpenAI-compatible or provider endpoint.")]
RecordOption = Annotated[Optional[str], typer.Option(
    "--record", help="Append every model request and reply to this JSONL file.")]
CacheOption = Annotated[Optional[bool], typer.Option(
    "--cache/--no-cache", help="Answer repeated requests from the on-disk response cache.")]
MaxCostOption = Annotated[Optional[float], typer.Option(
    "--max-cost-usd", help="Stop cleanly once this many US dollars are spent.")]
MaxTokensOption = Annotated[Optional[int], typer.Option(
    "--max-tokens", help="Stop cleanly once this many tokens are used.")]
MaxCallsOption = Annotated[Optional[int], typer.Option(
    "--max-calls", help="Stop cleanly once this many model calls were made.")]
JsonOption = Annotated[Optional[Path], typer.Option(
    "--json", help="Also write the report as JSON {summary, rows} to this file.")]

PIPE_WIDTH = 200

RUN_FLAGS = {"model": ModelOption, "api_base": ApiBaseOption, "record": RecordOption, "cache": CacheOption,
             "max_cost_usd": MaxCostOption, "max_tokens": MaxTokensOption, "max_calls": MaxCallsOption}


def with_run_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Give a command the shared flags; it receives ``options: RunOptions`` and ``json_path``.

    ``options`` is filled from the flags, then ``AGENT_*`` variables, then ``[run]`` in agentkiln.toml.
    """
    own = [p for p in inspect.signature(command, eval_str=True).parameters.values()
           if p.name not in ("options", "json_path")]
    added = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=annotation)
             for name, annotation in {**RUN_FLAGS, "json_path": JsonOption}.items()]

    @functools.wraps(command)
    def wrapper(**kwargs: Any) -> Any:
        flags = {name: kwargs.pop(name) for name in RUN_FLAGS}
        json_path = kwargs.pop("json_path")
        options = load_config(RunOptions, "run", flags, env_prefix="AGENT_")
        return command(**kwargs, options=options, json_path=json_path)

    signature = inspect.Signature(own + added)
    wrapper.__signature__ = signature  # type: ignore[attr-defined]
    wrapper.__annotations__ = {p.name: p.annotation for p in signature.parameters.values()}
    return wrapper


def make_console() -> Any:
    """A rich console on stdout: terminal width on a terminal, wide enough for whole tables otherwise."""
    from rich.console import Console

    return Console(width=None if sys.stdout.isatty() else PIPE_WIDTH)


def emit_report(report: Report, json_path: Path | str | None = None, run: "Run | None" = None) -> None:
    """Print the report as a table on stdout and write it to ``json_path`` when given."""
    out = make_console()
    out.print(report_table(report, run))
    for row_table in rows_table(report):
        out.print(row_table)
    if run is not None:
        out.print(f"run directory: {run.dir}")
    if json_path:
        report.write_json(json_path)
        out.print(f"report written to {json_path}")


def report_table(report: Report, run: "Run | None" = None) -> Any:
    """The summary as a two-column table."""
    from rich.table import Table

    title = report.title or (f"{run.agent} run {run.id}" if run else "report")
    table = Table(title=title, show_header=False)
    table.add_column("key", style="bold")
    table.add_column("value")
    for key, value in report.summary.items():
        table.add_row(str(key), cell_text(value))
    return table


def rows_table(report: Report, limit: int = 200) -> list[Any]:
    """The rows as a table (none when there are no rows); long reports show their first ``limit`` rows."""
    from rich.table import Table

    if not report.rows:
        return []
    columns: list[str] = []
    for row in report.rows:
        columns += [key for key in row if key not in columns]
    table = Table(*columns, caption=f"{len(report.rows)} rows" + (f", first {limit} shown"
                                                                   if len(report.rows) > limit else ""))
    for row in report.rows[:limit]:
        table.add_row(*(cell_text(row.get(column)) for column in columns))
    return [table]


def cell_text(value: Any) -> str:
    """A value as table text (floats to 4 significant digits, None as a dash)."""
    if isinstance(value, float):
        return f"{value:.4g}"
    if value is None:
        return "—"
    return str(value)
