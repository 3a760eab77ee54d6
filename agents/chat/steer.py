"""Steering an attached run from the chat: /status /budget /guide /answer /pause /resume.

A run paused at an interrupt collects an answer here (its agent's budget, guidance, any JSON the
interrupt accepts); /resume continues it in the background with `agent runs resume ID --answer JSON`
and follows its progress. A run stopped without an interrupt (budget, kill, failure) takes spending
limits and guidance into its config.json instead, and /resume continues it from its last checkpoint.
"""

from __future__ import annotations

import json
import shlex
from typing import TYPE_CHECKING, Any

from sandboxes.errors import UserError

from agents.chat.attach import BUDGET_FLAGS, current, is_paused, show_run
from agents.runtime.interrupts import add_guidance, request_pause, waiting_interrupts
from agents.runtime.launch import change_spending_limits
from agents.runtime.run import Run

if TYPE_CHECKING:
    from agents.chat.session import ChatSession

ATTEMPTS_FLAG = "--attempts"
"""/budget flag for the agent's own budget (EvoKernel: attempts per task), sent as the answer's ``budget``."""
USAGE = f"usage: /budget [{ATTEMPTS_FLAG} N] [--max-cost-usd X] [--max-tokens N] [--max-calls N]"


def parse_budget(argument: str) -> dict[str, Any]:
    """``/budget`` flags as ``{field: value}`` (``budget`` for --attempts, else RunOptions fields)."""
    words, values = shlex.split(argument), {}
    if not words or len(words) % 2:
        raise UserError(USAGE)
    flags = {**BUDGET_FLAGS, ATTEMPTS_FLAG: ("budget", int)}
    for flag, text in zip(words[::2], words[1::2]):
        if flag not in flags:
            raise UserError(f"unknown budget flag {flag}; use {', '.join(flags)}")
        key, kind = flags[flag]
        try:
            values[key] = kind(text)
        except ValueError:
            raise UserError(f"{flag} needs a number, got {text!r}") from None
        if values[key] < 0 or (key == "budget" and values[key] < 1):
            raise UserError(f"{flag} must be {'at least 1' if key == 'budget' else '0 or more'}, got {text}")
    return values


def accepted(run: Run) -> set[str]:
    """The answer fields the interrupts of ``run`` declare (``accepts``); empty when it waits on none."""
    return {key for value in waiting_interrupts(run) if isinstance(value, dict) for key in value.get("accepts", {})}


class Steering:
    """The attached run and the answer being put together for its interrupt."""

    def __init__(self, run: Run):
        self.run = run
        self.answer: dict[str, Any] = {}

    def latest(self) -> Run:
        return current(self.run)

    def paused(self) -> Run:
        run = self.latest()
        if not is_paused(run):
            raise UserError(f"run {run.id} is {run.status}; budget, guidance and resume apply to a paused run")
        return run

    def add_to_answer(self, run: Run, key: str, value: Any) -> None:
        if key not in accepted(run):
            raise UserError(f"run {run.id} does not wait for an answer with '{key}'")
        if key == "guidance" and self.answer.get("guidance"):
            value = f"{self.answer['guidance']}\n{value}"
        self.answer[key] = value

    def resume_argv(self, run: Run) -> list[str]:
        argv = ["runs", "resume", run.id]
        if waiting_interrupts(run):
            argv += ["--answer", json.dumps(self.answer)]
            self.answer = {}
        return argv


def install_attach_commands(session: "ChatSession", run: Run) -> None:
    """/status, /budget, /guide, /answer, /pause and /resume for the attached run."""
    steering = Steering(run)

    def status(s: "ChatSession", _argument: str) -> bool:
        """The attached run's state, latest events and what it waits for."""
        show_run(s, steering.latest())
        if steering.answer:
            s.say(f"answer so far (sent by /resume): {json.dumps(steering.answer)}")
        return True

    def budget(s: "ChatSession", argument: str) -> bool:
        """/budget [--attempts N] [--max-cost-usd X] ... changes a paused run's budget."""
        target = steering.paused()
        changes = parse_budget(argument)
        if "budget" in changes:
            steering.add_to_answer(target, "budget", changes.pop("budget"))
            s.say(f"answer so far: {json.dumps(steering.answer)}; /resume sends it")
        if changes:
            change_spending_limits(target, changes, by="chat")
            s.say(f"spending limits of {target.id} are now {changes}; /resume continues it")
        return True

    def guide(s: "ChatSession", argument: str) -> bool:
        """/guide TEXT adds guidance for the paused run's agent (sent with /resume, or saved in its config)."""
        target = steering.paused()
        if not argument:
            raise UserError("usage: /guide TEXT")
        if "guidance" in accepted(target):
            steering.add_to_answer(target, "guidance", argument)
            s.say(f"guidance will be sent with /resume: {json.dumps(steering.answer)}")
            return True
        add_guidance(target, argument, by="chat")
        s.say(f"guidance added to {target.id}")
        return True

    def answer(s: "ChatSession", argument: str) -> bool:
        """/answer JSON merges a JSON object into the answer /resume sends to the run's interrupt."""
        target = steering.paused()
        try:
            value = json.loads(argument or "null")
        except json.JSONDecodeError as error:
            raise UserError(f"/answer needs a JSON object: {error}") from None
        if not isinstance(value, dict) or not waiting_interrupts(target):
            raise UserError("/answer needs a JSON object and a run that waits at an interrupt")
        steering.answer.update(value)
        s.say(f"answer so far: {json.dumps(steering.answer)}; /resume sends it")
        return True

    def pause(s: "ChatSession", _argument: str) -> bool:
        """Ask the running run to pause at its next safe point (EvoKernel: after the current round)."""
        target = steering.latest()
        if target.status != "running":
            raise UserError(f"run {target.id} is {target.status}; only a running run can be asked to pause")
        request_pause(target, by="chat")
        s.say(f"asked {target.id} to pause; /status shows when it waits")
        return True

    def resume(s: "ChatSession", _argument: str) -> bool:
        """Continue the paused run in the background (with the answer, if it waits at an interrupt)."""
        from agents.chat.background import BackgroundRun, line_printer

        target = steering.paused()
        job = BackgroundRun(steering.resume_argv(target), line_printer(s.console), s.run.artifacts,
                            run_id=target.id, root=target.dir.parent)
        job.start()
        s.background.append(job)
        return True

    session.commands.update({"status": status, "budget": budget, "guide": guide, "answer": answer, "pause": pause,
                             "resume": resume})
