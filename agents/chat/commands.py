"""Slash commands: /tools /model /cost /save /undo /run /help /exit (attach mode adds its own)."""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import TYPE_CHECKING, Callable

from sandboxes.errors import UserError

from agents.chat.render import key_value_table, tools_table
from agents.chat.transcript import transcript_markdown

if TYPE_CHECKING:
    from agents.chat.session import ChatSession

Handler = Callable[["ChatSession", str], bool]


def dispatch(session: "ChatSession", line: str) -> bool:
    """Run one slash command; False ends the session."""
    name, _, argument = line[1:].partition(" ")
    handler = {**COMMANDS, **session.commands}.get(name.lower())
    if handler is None:
        session.say(f"unknown command /{name}; /help lists them")
        return True
    try:
        return handler(session, argument.strip())
    except UserError as error:
        session.say(f"error: {error}")
        return True


def show_help(session: "ChatSession", _argument: str) -> bool:
    for name, handler in {**COMMANDS, **session.commands}.items():
        session.say(f"/{name:<7} {(handler.__doc__ or '').strip()}")
    return True


def exit_session(session: "ChatSession", _argument: str) -> bool:
    """Leave the session (the thread is saved; resume with --thread)."""
    return False


def list_tools(session: "ChatSession", _argument: str) -> bool:
    """The tools by group, with their approval mode."""
    modes = {name: session.policy.mode(tool) for name, tool in session.toolbox.tools.items()}
    session.say(tools_table(session.toolbox.groups(), modes, session.toolbox.unavailable))
    return True


def switch_model(session: "ChatSession", argument: str) -> bool:
    """/model NAME switches the model for the next replies (no name: show the current one)."""
    if not argument:
        session.say(f"model: {session.model.name}")
        return True
    from agents.runtime.models.resolve import build_model

    session.set_model(build_model(argument, session.api_base))
    session.run.emit("chat.model", model=argument)
    session.say(f"model: {argument}")
    return True


def show_cost(session: "ChatSession", _argument: str) -> bool:
    """Tokens, calls and money spent in this thread so far."""
    totals = session.run.totals
    values = {"model": session.model.name, "model calls": totals.calls, "prompt tokens": totals.prompt_tokens,
              "completion tokens": totals.completion_tokens, "cost (USD)": f"{totals.cost_usd:.6f}",
              "tool calls": len(session.run.events("tool.call"))}
    session.say(key_value_table(f"cost of thread {session.run.id}", values))
    return True


def save(session: "ChatSession", argument: str) -> bool:
    """/save [FILE] writes the conversation as Markdown (default: the thread's artifacts/transcript.md)."""
    path = Path(argument).expanduser() if argument else session.run.artifacts / "transcript.md"
    try:
        path.write_text(transcript_markdown(session.run.id, session.messages()))
    except OSError as error:
        raise UserError(f"cannot write {path}: {error.strerror}") from None
    session.run.emit("chat.saved", path=str(path))
    session.say(f"saved to {path}")
    return True


def undo(session: "ChatSession", _argument: str) -> bool:
    """Rewind the thread to before your last message (earlier checkpoints stay in the history)."""
    messages = session.messages()
    users = [index for index, message in enumerate(messages) if message.get("role") == "user"]
    if not users:
        session.say("nothing to undo")
        return True
    kept = messages[:users[-1]]
    session.graph.update_state(session.thread, {"messages": {"replace": kept}, "decisions": [], "cancelled": False},
                               as_node="agent")
    session.run.emit("chat.undo", dropped=len(messages) - len(kept))
    session.say(f"undone: {messages[users[-1]]['content'][:80]!r} and {len(messages) - len(kept) - 1} later messages")
    return True


def start_run(session: "ChatSession", argument: str) -> bool:
    """/run AGENT [ARGS...] starts `agent run AGENT ...` in the background and follows its events."""
    from agents.chat.background import BackgroundRun, line_printer

    if not argument:
        for job in session.background:
            session.say(job.describe())
        return True
    job = BackgroundRun(["run", *shlex.split(argument)], line_printer(session.console), session.run.artifacts)
    job.start()
    session.background.append(job)
    session.run.emit("chat.background_run", argv=job.argv)
    return True


COMMANDS: dict[str, Handler] = {"help": show_help, "tools": list_tools, "model": switch_model, "cost": show_cost,
                                "save": save, "undo": undo, "run": start_run, "exit": exit_session,
                                "quit": exit_session}
show_help.__doc__ = "This list."
