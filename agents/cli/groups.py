"""The `agent` command tree. Feature modules attach their commands to these groups."""

from typing import Annotated

import typer

EXIT_CODES_HELP = ("Exit codes: 0 done, 1 failed, 2 bad input, 3 stopped by its budget, 4 paused for an answer, "
                   "130 interrupted (Ctrl-C; `agent runs resume ID` continues the run).")
app = typer.Typer(help="agentkiln: agents that write code, run it in sandboxes and learn from the outcome.",
                  epilog=EXIT_CODES_HELP, no_args_is_help=True, pretty_exceptions_enable=False, add_completion=True)
run_app = typer.Typer(help="Run an agent.", no_args_is_help=True)
bench_app = typer.Typer(help="Run a benchmark suite.", no_args_is_help=True)
runs_app = typer.Typer(help="List, inspect and resume runs.", no_args_is_help=True)
sandbox_app = typer.Typer(help="Sandbox images, selftest and benchmark.", no_args_is_help=True)

app.add_typer(run_app, name="run")
app.add_typer(bench_app, name="bench")
app.add_typer(runs_app, name="runs")
app.add_typer(sandbox_app, name="sandbox")


def _print_version(given: bool) -> None:
    if given:
        from importlib.metadata import version

        typer.echo(f"agentkiln {version('agentkiln')}")
        raise typer.Exit()


@app.callback()
def options(
    version: Annotated[bool, typer.Option("--version", is_eager=True, callback=_print_version,
                                          help="Print the version and exit.")] = False,
    debug: Annotated[bool, typer.Option("--debug", help="Show the whole traceback of an error instead of one "
                                                        "line (may be given anywhere on the command line).")]
    = False,
) -> None:
    """Options of every command (--debug is read wherever it stands on the command line)."""
