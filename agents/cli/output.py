"""How every command hands back its result, and the exit code a run's status maps to.

One convention everywhere: tables on stdout by default; ``--json`` prints one JSON document on stdout
instead (everything else a command prints goes to stderr then); ``--json-out FILE`` also writes that
document to FILE.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Callable, Optional, TextIO

import typer

from benchmarks.report import Report

from agents.cli.tables import report_table, rows_table

if TYPE_CHECKING:
    from agents.runtime.run import Run

JsonFlag = Annotated[bool, typer.Option(
    "--json", help="Print the result as one JSON document on stdout (anything else goes to stderr).")]
JsonOutOption = Annotated[Optional[Path], typer.Option(
    "--json-out", metavar="FILE", help="Also write the result as JSON to FILE.")]

EXIT_CODES = {"stopped": 3, "paused": 4}
"""Exit codes of a run that ended without finishing: 3 stopped by its budget, 4 paused for an answer
(a user error is 2, an interrupt 130)."""


class CommandInterrupted(Exception):
    """Ctrl-C ended a command; carries the id of the run it interrupted (None: no run was going)."""

    def __init__(self, run_id: str | None):
        super().__init__(run_id or "interrupted")
        self.run_id = run_id


@dataclass
class Output:
    """Where one command's result goes (``--json`` / ``--json-out``)."""

    as_json: bool = False
    """Print the JSON document on stdout instead of tables."""
    json_out: Path | None = None
    """Also write the JSON document here."""
    stdout: TextIO = field(default_factory=lambda: sys.stdout)
    """The real stdout (``--json`` sends everything else to stderr)."""

    def document(self, data: Any, show: Callable[[Any], None]) -> None:
        """Hand back ``data``: as JSON (stdout and/or file), else ``show(console)`` prints it for people."""
        text = json.dumps(data, indent=2, default=str) + "\n"
        if self.json_out:
            self.json_out.parent.mkdir(parents=True, exist_ok=True)
            self.json_out.write_text(text)
        if self.as_json:
            self.stdout.write(text)
            self.stdout.flush()
        else:
            console = make_console()
            show(console)
            if self.json_out:
                console.print(f"JSON written to {self.json_out}")

    def report(self, report: Report, run: "Run | None" = None) -> None:
        """Hand back a report (and its run); a budget-stopped or paused run then exits with its code."""
        data = report.to_dict()
        if run is not None:
            data["run"] = {"id": run.id, "dir": str(run.dir), "status": run.status}
        self.document(data, lambda console: show_report(console, report, run))
        if run is not None and run.status in EXIT_CODES:
            raise typer.Exit(EXIT_CODES[run.status])


def show_report(console: Any, report: Report, run: "Run | None" = None) -> None:
    """The summary table, the rows table and where the run directory is."""
    console.print(report_table(report, run))
    for table in rows_table(report, details="report.md" if run is not None else None):
        console.print(table)
    if run is not None:
        console.print(f"run directory: {run.dir}")


PIPE_WIDTH = 160


def make_console() -> Any:
    """A rich console on stdout: terminal width on a terminal, a fixed width otherwise."""
    from rich.console import Console

    return Console(width=None if sys.stdout.isatty() else PIPE_WIDTH)


def with_output(command: Callable[..., Any]) -> Callable[..., Any]:
    """Give a command ``--json`` and ``--json-out``; it receives ``output: Output`` and hands its result to it."""
    def build(values: dict[str, Any]) -> dict[str, Any]:
        return {"output": Output(values["as_json"], values["json_out"], sys.stdout)}

    def call(kwargs: dict[str, Any]) -> Any:
        try:
            if not kwargs["output"].as_json:
                return command(**kwargs)
            with contextlib.redirect_stdout(sys.stderr):
                return command(**kwargs)
        except KeyboardInterrupt as interrupt:  # typer would turn it into a bare exit code and lose the run id
            raise CommandInterrupted(getattr(interrupt, "run_id", None)) from None

    return add_options(command, {"as_json": (JsonFlag, False), "json_out": (JsonOutOption, None)}, ("output",),
                       build, call)


def add_options(command: Callable[..., Any], options: dict[str, tuple[Any, Any]], received: tuple[str, ...],
                build: Callable[[dict[str, Any]], dict[str, Any]],
                call: Callable[[dict[str, Any]], Any] | None = None) -> Callable[..., Any]:
    """Add keyword options ``{name: (annotation, default)}`` to ``command``'s CLI signature.

    ``build`` turns their values into the keyword arguments named ``received``, which ``command`` gets
    instead (they are left out of the signature); ``call(kwargs)`` calls the command (default: directly).
    """
    given = inspect.signature(command, eval_str=True).parameters.values()
    own = [p for p in given if p.name not in received]
    added = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation)
             for name, (annotation, default) in options.items()]

    @functools.wraps(command)
    def wrapper(**kwargs: Any) -> Any:
        values = {name: kwargs.pop(name) for name in options}
        kwargs.update(build(values))
        return call(kwargs) if call else command(**kwargs)

    signature = inspect.Signature(own + added)
    wrapper.__signature__ = signature  # type: ignore[attr-defined]
    wrapper.__annotations__ = {p.name: p.annotation for p in signature.parameters.values()}
    return wrapper
