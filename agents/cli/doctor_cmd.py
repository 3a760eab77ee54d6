"""`agent doctor`: report what this machine can do (sandboxes, toolchains, model providers)."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from agents.cli.groups import app
from agents.cli.output import Output, with_output


@app.command("doctor")
@with_output
def doctor(selftest: Annotated[bool, typer.Option("--selftest/--no-selftest",
                                                  help="Run the sandbox selftest (adversarial suite).")] = True,
           *, output: Output) -> None:
    """Check Docker, bubblewrap, g++, nvcc, a GPU, the Triton interpreter, KLayout, model credentials and the
    Ray cluster --executor ray would use."""
    from agents.runtime.doctor import diagnose

    report = diagnose(selftest=selftest)
    output.document(report, lambda console: _show(console, report))


def _show(out: Any, report: dict[str, Any]) -> None:
    """The checks as tables and the default model in one line."""
    out.print(_table("sandboxes", report["sandboxes"]))
    out.print(_table("toolchains", report["toolchains"]))
    models = report["models"]
    out.print(_table("model providers (credentials)", models["providers"]))
    default = models["default_model"]
    out.print(f"default model: {default['detail']} (from {default['source']}); config file: {models['config_file']}; "
              f"litellm {models['litellm']}")
    out.print(_table("executor (where evaluations run)", report["executor"]))


def _table(title: str, checks: dict[str, Any]) -> Any:
    from rich.table import Table
    from rich.text import Text

    table = Table(title=title, show_header=False)
    for name, check in checks.items():
        mark = "[green]yes[/green]" if check["ok"] else "[red]no[/red]"
        table.add_row(Text(name), mark, Text(check["detail"]))  # details hold brackets: pip install 'agentkiln[ray]'
    return table
