"""Runs paused at a LangGraph ``interrupt(...)``: what they ask, how they are answered, and pause requests.

A graph that stops at an interrupt raises :class:`RunPaused` out of ``run_graph``; the run's status
becomes ``paused`` and ``status.json`` holds the interrupt values. ``agent runs resume ID --answer JSON``
(or ``run_graph(..., resume=value)``) continues it with ``Command(resume=value)``. Another process
(``agent chat --attach``) asks a running agent to pause by writing a request file that the agent checks
at its next safe point. Guidance for a run's agent is kept in its config.json, whoever gives it.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agents.runtime.run import Run

PAUSE_REQUEST_FILE = "pause.request"


class NoAnswer:
    """The type of :data:`NO_ANSWER` (resume without answering: the interrupt asks again)."""

    def __repr__(self) -> str:
        return "NO_ANSWER"


NO_ANSWER = NoAnswer()


class RunPaused(Exception):
    """The run's graph stopped at an interrupt and waits for an answer; nothing is lost."""

    def __init__(self, run_id: str, interrupts: list[Any]):
        self.run_id = run_id
        self.interrupts = interrupts
        super().__init__(question_text(interrupts))


def question_text(interrupts: list[Any]) -> str:
    """One line saying what the interrupts ask (their ``question`` field, else their JSON)."""
    parts = [str(value.get("question")) if isinstance(value, dict) and value.get("question")
             else json.dumps(value, default=str) for value in interrupts]
    return "; ".join(parts) or "waiting at an interrupt"


def snapshot_interrupts(snapshot: Any) -> list[Any]:
    """The ``Interrupt`` objects a graph state snapshot waits on."""
    return [item for task in snapshot.tasks for item in task.interrupts]


def pending_interrupts(run: "Run") -> list[Any]:
    """Values of the interrupts the run's last checkpoint waits on (read without the agent's graph)."""
    if not (run.dir / "checkpoints.sqlite").exists():
        return []
    saved = run.checkpointer().get_tuple({"configurable": {"thread_id": run.id}})
    writes = saved.pending_writes if saved else []
    values = [value for _task, channel, value in writes or [] if channel == "__interrupt__"]
    items = [item for group in values for item in (group if isinstance(group, list) else [group])]
    return [getattr(item, "value", item) for item in items]


def waiting_interrupts(run: "Run") -> list[Any]:
    """What a paused run waits on: its checkpoint's interrupts, else those its status records (a run that
    paused because a child run did, like a bench)."""
    record = run.status_record()
    saved = record.get("interrupts") if record["status"] == "paused" else None
    return pending_interrupts(run) or list(saved or [])


def parse_answer(text: str) -> Any:
    """The JSON value given to ``--answer`` (a clear error when it is not JSON)."""
    from sandboxes.errors import UserError

    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise UserError(f"--answer must be JSON (e.g. '{{\"budget\": 6}}'): {error}") from None


def request_pause(run: "Run", by: str) -> None:
    """Ask the agent of ``run`` (possibly another process) to pause at its next safe point."""
    (run.dir / PAUSE_REQUEST_FILE).write_text(json.dumps({"by": by}) + "\n")
    run.emit("pause.requested", by=by)


def pause_requested(run: "Run") -> bool:
    return (run.dir / PAUSE_REQUEST_FILE).exists()


def clear_pause_request(run: "Run") -> None:
    (run.dir / PAUSE_REQUEST_FILE).unlink(missing_ok=True)


def run_guidance(run: "Run") -> list[str]:
    """Guidance given to the run so far, oldest first (config.json ``guidance``)."""
    return [str(text) for text in run.meta.get("guidance") or []]


def add_guidance(run: "Run", text: str, by: str) -> None:
    """Append ``text`` to the run's guidance (config.json) and record who gave it."""
    run.update_meta(guidance=[*run_guidance(run), text])
    run.emit("guidance", text=text, by=by)
