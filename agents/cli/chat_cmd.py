"""`agent chat`: an interactive session with every tool, approval, streaming and resumable threads.

Heavy modules (LangGraph, litellm, the tools) are imported only when a session starts.
"""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from agents.cli.common import ApiBaseOption
from agents.cli.groups import app

ChatModelOption = Annotated[Optional[str], typer.Option(
    "--model", help="Model: provider/name (openai/gpt-4o-mini, anthropic/..., ollama/...), replay:FILE or "
                    "scripted:FILE. Default: $AGENT_MODEL, then run.model in agentkiln.toml, then a provider key; "
                    "chat has no offline policy, so without any of these it stops with a message.")]


@app.command("chat")
def chat(
    model: ChatModelOption = None,
    api_base: ApiBaseOption = None,
    repo: Annotated[Optional[str], typer.Option("--repo", help="Repository for the RPG navigation tools.")] = None,
    thread: Annotated[Optional[str], typer.Option("--thread", help="Resume this thread (id, prefix or last).")] = None,
    list_threads: Annotated[bool, typer.Option("--list", help="List chat threads and exit.")] = False,
    attach: Annotated[Optional[str], typer.Option("--attach", help="Inspect and steer this agent run.")] = None,
    yes: Annotated[Optional[bool], typer.Option("--yes", help="Approve calls of sandboxed tools without asking.")]
    = None,
    tools: Annotated[Optional[str], typer.Option("--tools", help="Comma-separated tool packages to load "
                                                 "(sandbox,kernels,drc,ahd,numerics); default all.")] = None,
    sandbox: Annotated[Optional[str], typer.Option("--sandbox", help="Sandbox backend: docker, local or auto.")]
    = None,
) -> None:
    """Talk with an agent that uses every tool; code runs only after you approve it."""
    if list_threads:
        _print_threads()
        return
    from agents.chat.config import ChatConfig
    from agents.chat.start import start_chat
    from agents.runtime.config import load_config

    flags = {"repo": repo, "yes": yes, "sandbox": sandbox,
             "tools": [t.strip() for t in tools.split(",") if t.strip()] if tools else None}
    config = load_config(ChatConfig, "chat", flags, env_prefix="AGENT_CHAT_")
    start_chat(config, model_spec=model, api_base=api_base, thread=thread, attach=attach)


def _print_threads() -> None:
    from benchmarks.report import Report

    from agents.chat.threads import thread_rows
    from agents.cli.output import make_console
    from agents.cli.tables import rows_table

    rows = thread_rows()
    console = make_console()
    if not rows:
        console.print("no chat threads yet; start one with: agent chat")
        return
    for table in rows_table(Report(summary={}, rows=rows)):
        console.print(table)
    console.print("resume one with: agent chat --thread ID")
