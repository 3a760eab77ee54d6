"""`agent run repair`: the repair agent on one issue of a repository; its diff, trajectory and worktree are kept
in the run directory."""

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

register_agent("repair", "agents.repair.agent:execute")


def issue_text(value: str | None) -> str | None:
    """``--issue TEXT`` or ``--issue @FILE``."""
    if value is None or not value.startswith("@"):
        return value
    path = Path(value[1:])
    if not path.is_file():
        raise UserError(f"--issue {value}: no such file")
    return path.read_text()


@run_app.command("repair")
@with_run_options
def run_repair(
        repo: Annotated[str, typer.Option("--repo", help="The repository (it is copied; edits go to the copy).")] = ".",
        issue: Annotated[Optional[str], typer.Option("--issue", help="The issue text, or @FILE.")] = None,
        test_cmd: Annotated[Optional[str], typer.Option("--test-cmd", help="What run_tests runs.")] = None,
        max_steps: Annotated[Optional[int], typer.Option("--max-steps", min=1, help="Model turns at most.")] = None,
        yes: Annotated[bool, typer.Option("--yes", help="Approve sandboxed calls (edits, tests) without asking.")] = False,
        sandbox: Annotated[Optional[str], typer.Option("--sandbox", help="docker | local | auto.")] = None,
        *, options: RunOptions, output: Output) -> None:
    """Fix an issue: localise, edit a sandboxed worktree, run the tests, submit a diff (needs a model)."""
    from agents.repair.agent import check
    from agents.repair.config import RunRepairConfig

    config = load_config(RunRepairConfig, "repair", {"repo": repo, "issue": issue_text(issue), "test_cmd": test_cmd,
                                                     "max_steps": max_steps, "yes": yes or None, "sandbox": sandbox})
    run, report = launch("repair", config, options, check=check)
    output.report(report, run)
