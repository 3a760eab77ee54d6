"""The generate step for one task: ask the model (or the offline policy) for the next kernel."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from agents.runtime.models.base import ChatModel, ModelReplyError
from agents.runtime.models.parsing import complete_parsed
from benchmarks.kernels.tasks import KernelTask

from agents.evokernel import prompts
from agents.evokernel.context import Deps
from agents.evokernel.parsing import parse_kernel
from agents.evokernel.state import DRAFT, REFINE
from agents.evokernel.records import Candidate, Context, TaskState


def generate(kernel: KernelTask, task: TaskState, context: Context, deps: Deps,
             model: ChatModel | None, language: str, rng: np.random.Generator) -> Candidate | None:
    """The candidate for attempt ``task['attempts'] + 1``; None when the offline policy has nothing new."""
    start = context.get("start")
    base = {"attempt": task["attempts"] + 1, "stage": task["stage"], "params": None, "params_key": None,
            "template": None, "mutation": None, "start_point": start["attempt"] if start else None,
            "start_memory_id": start.get("memory_id") if start else None, "error": None}
    if model is None:
        proposal = _offline(kernel, task, context, deps, rng)
        return None if proposal is None else {**base, **proposal}
    messages = [prompts.system_message(deps.config.target, language), _user_message(kernel, task, context)]
    try:
        return {**base, "code": complete_parsed(model, messages, parse_kernel)}
    except ModelReplyError as error:
        return {**base, "code": None, "error": f"parse_error: {error}"}


def _offline(kernel: KernelTask, task: TaskState, context: Context, deps: Deps,
             rng: np.random.Generator) -> dict[str, Any] | None:
    policy = deps.policy
    if task["stage"] == DRAFT:
        return policy.draft(kernel, task["tried"], context["hints"])
    if task["stage"] == REFINE:
        return policy.refine(kernel, context["start"]["params"] or {}, task["tried"], context["hints"], rng)
    return policy.sample(kernel, task["tried"], rng)


def _user_message(kernel: KernelTask, task: TaskState, context: Context) -> dict[str, str]:
    if task["stage"] == REFINE:
        start = context["start"]
        start_view = {"code": Path(start["code_path"]).read_text(), "bottleneck": start.get("bottleneck"),
                      "profile": start.get("profile") or "no profile", "latency": f"{start['latency_ms']:.4g} ms"}
        children = context["children"] or ([_last_text(context["last"])] if context["last"] else [])
        return prompts.refine_message(kernel.source, start_view, children, context["items"],
                                      context["bottleneck_examples"], context["api"], context.get("guidance"))
    last = context["last"] if task["stage"] == DRAFT else None
    return prompts.draft_message(kernel.source, context["api"], context["items"], last, context.get("guidance"))


def _last_text(last: dict[str, Any]) -> str:
    return f"Your previous attempt ({last['status']}): {last['feedback']}\n```python\n{last['code']}\n```"
