"""Steering an EvoKernel run: when to pause, what the pause asks, and the answer (new budget, guidance).

The run pauses through a LangGraph ``interrupt`` after every ``pause_every`` rounds or when another
process asked it to (``agents.runtime.interrupts.request_pause``, e.g. ``/pause`` in ``agent chat
--attach``). The answer may set a new budget T (attempts per task; saved in the run's config) and add
guidance, which every later draft and refine prompt shows to the model. The offline policy cannot read
text: it records that it saw the guidance and that it does not act on it.
"""

from __future__ import annotations

from typing import Any

from langgraph.types import interrupt
from pydantic import Field, ValidationError

from sandboxes.errors import UserError
from sandboxes.settings import Config

from agents.runtime.interrupts import add_guidance, run_guidance
from agents.runtime.run import Run

ANSWER_FIELDS = {"budget": "attempts per task T (an integer >= 1); raising it reopens tasks the old budget ended",
                 "guidance": "text shown to the model in every later draft and refine prompt"}
OFFLINE_NOTE = ("the offline policy cannot interpret free text: the guidance is recorded, but the policy's "
                "proposals do not change (a model run shows it in every prompt)")
MODEL_NOTE = "shown to the model in every later draft and refine prompt"


class PauseAnswer(Config):
    """The answer to an EvoKernel pause (every field optional; ``{}`` continues unchanged)."""

    budget: int | None = Field(None, ge=1)
    """New T: attempts per task, shared by draft and refine."""
    guidance: str | None = None
    """Guidance for the model's next prompts."""


def parse_answer(value: Any) -> PauseAnswer:
    """The answer given to ``agent runs resume --answer``; a clear error (the run stays paused) when invalid."""
    try:
        return PauseAnswer.model_validate({} if value is None else value)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(part) for part in first.get("loc", ())) or "answer"
        raise UserError(f"evokernel answer {where}: {first.get('msg', 'invalid')}; expected a JSON object with "
                        f"{', '.join(ANSWER_FIELDS)}") from None


def ask_until_valid(question: dict[str, Any]) -> PauseAnswer:
    """Interrupt until the answer is valid; a rejected answer is asked again, saying why (LangGraph keeps each
    answer given to this node, so a re-run replays them in order and reaches the same point)."""
    asked = question
    while True:
        try:
            return parse_answer(interrupt(asked))
        except UserError as error:
            asked = {**question, "question": f"the last answer was rejected ({error}). {question['question']}",
                     "rejected": str(error)}


def pause_question(state: dict[str, Any], budget: int, reason: str) -> dict[str, Any]:
    """What the interrupt asks: the progress so far and the fields the answer may set."""
    tasks = state["tasks"].values()
    return {"question": f"EvoKernel paused after round {state.get('round', 0)} ({reason}): answer with a new "
                        f"budget (now {budget} attempts per task) and/or guidance for the model, or {{}}",
            "reason": reason, "round": state.get("round", 0), "budget": budget,
            "attempts": sum(t["attempts"] for t in tasks),
            "correct": sum(1 for t in tasks if t["first_feasible_attempt"] is not None), "tasks": len(state["tasks"]),
            "accepts": ANSWER_FIELDS}


def latest_guidance(run: Run) -> str | None:
    """The newest guidance given to the run, None when there is none."""
    guidance = run_guidance(run)
    return guidance[-1] if guidance else None


def record_guidance(run: Run, text: str, by: str) -> None:
    """Add ``text`` to the run's guidance (once: a node that runs again does not add it twice)."""
    if latest_guidance(run) != text:
        add_guidance(run, text, by)


def acknowledge_guidance(run: Run, text: str, policy: str, offline: bool) -> None:
    """One ``evokernel.guidance_seen`` event per guidance text: who saw it and what it does with it."""
    if any(event.get("text") == text for event in run.events("evokernel.guidance_seen")):
        return
    run.emit("evokernel.guidance_seen", text=text, policy=policy, applied=not offline,
             note=OFFLINE_NOTE if offline else MODEL_NOTE)
