"""`agent run rpg`: encode a repository into an RPG (or update a saved one from git), then optionally
localise an issue in it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Optional

import typer

from sandboxes.errors import UserError

from agents.cli.common import with_run_options
from agents.cli.groups import run_app
from agents.cli.output import Output
from agents.runtime.config import load_config
from agents.runtime.launch import RunOptions, launch
from agents.runtime.registry import register_agent

register_agent("rpg", "agents.rpg.run_agent:execute")


@run_app.command("rpg")
@with_run_options
def run_rpg(repo: Annotated[str, typer.Option("--repo", help="Repository to encode.")] = ".",
            commit: Annotated[Optional[str], typer.Option("--commit", help="Commit to encode (default HEAD).")] = None,
            graph: Annotated[Optional[str], typer.Option("--graph", help="Graph file to update and save.")] = None,
            issue: Annotated[Optional[str], typer.Option("--issue", help="Issue text to localise.")] = None,
            issue_file: Annotated[Optional[Path], typer.Option("--issue-file", help="Read the issue from a file.")] = None,
            lifter: Annotated[Optional[str], typer.Option("--lifter", help="auto | offline | model")] = None,
            *, options: RunOptions, output: Output) -> None:
    """Encode a repository into a Repository Planning Graph; localise an issue in it if given."""
    from agents.rpg.config import RunRPGConfig

    if issue_file:
        if not issue_file.is_file():
            raise UserError(f"no such issue file: {issue_file}")
        issue = issue_file.read_text()
    config = load_config(RunRPGConfig, "rpg", {"repo": repo, "commit": commit, "graph": graph, "issue": issue,
                                               "lifter": lifter})
    if not Path(config.repo).is_dir():
        raise UserError(f"not a directory: {config.repo} (--repo names the repository to encode)")
    run, report = launch("rpg", config, options)
    output.report(report, run)
