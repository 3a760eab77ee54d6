"""The `agent` command tree. Feature modules attach their commands to these groups."""

import typer

app = typer.Typer(help="agentkiln: agents that write code, run it in sandboxes and learn from the outcome.",
                  no_args_is_help=True, pretty_exceptions_enable=False, add_completion=False)
run_app = typer.Typer(help="Run an agent.", no_args_is_help=True)
bench_app = typer.Typer(help="Run a benchmark suite.", no_args_is_help=True)
runs_app = typer.Typer(help="List, inspect and resume runs.", no_args_is_help=True)
sandbox_app = typer.Typer(help="Sandbox images, selftest and benchmark.", no_args_is_help=True)

app.add_typer(run_app, name="run")
app.add_typer(bench_app, name="bench")
app.add_typer(runs_app, name="runs")
app.add_typer(sandbox_app, name="sandbox")
