"""The retrieve step for one task: stage signature, start point, memory items and API templates."""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from benchmarks.kernels.tasks import KernelTask
from memory.qmemory import EntryKind, QMemory, Retrieved, StateSignature, error_category
from memory.qmemory.retrieval import Candidate, epsilon_greedy
from sandboxes.telemetry import emit

from agents.evokernel.config import EvoKernelConfig
from agents.evokernel.memories import uses_memory
from agents.evokernel.offline import OfflinePolicy
from agents.evokernel.state import DRAFT, REFINE
from agents.evokernel.records import Context, StartPoint, TaskState

START_POINT = "start"
"""The Q-table stage of the start-point choice in refine, kept apart from the retrieval credit of the refine
stage: a kernel's value as a place to refine from is not its value as an example shown to the model."""


@dataclass
class Deps:
    """What retrieval needs besides the task: the config, the memory and (offline) the policy."""

    config: EvoKernelConfig
    memory: QMemory
    policy: OfflinePolicy | None

    @property
    def uses_memory(self) -> bool:
        return uses_memory(self.config.method)


def signature(config: EvoKernelConfig, task: TaskState) -> str:
    return StateSignature(config.target, task["op_family"], task["stage"], task["shape_bucket"],
                          error_category(task["last_status"])).key()


def query_text(kernel: KernelTask, task: TaskState, bottleneck: str | None = None) -> str:
    """What similarity search looks for: the op, the task, the stage and the last error."""
    parts = [f"{task['op_family']} kernel {kernel.name}: {kernel.description}", f"stage {task['stage']}",
             f"last status {task['last_status'] or 'none'}", task["last_feedback"][:300]]
    if bottleneck:
        parts.append(f"bottleneck {bottleneck}")
    return ". ".join(p for p in parts if p)


def build_context(kernel: KernelTask, task: TaskState, deps: Deps, rng: np.random.Generator) -> Context:
    """Everything generate needs for this task's next attempt (ids for the Q update included)."""
    sig = signature(deps.config, task)
    context: Context = {"stage": task["stage"], "signature": sig, "q_ids": [], "items": [], "hints": [],
                        "children": [], "bottleneck_examples": [], "start": None, "last": _last(task)}
    query = query_text(kernel, task)
    context["api"] = [_text(r, deps) for r in deps.memory.retrieve_api(query)]
    if task["stage"] == REFINE:
        start = choose_start_point(kernel, task, deps, sig, rng)
        if start is None:
            return {**context, "exhausted": True}
        context["start"] = start
        query = query_text(kernel, task, start.get("bottleneck"))
    if deps.uses_memory and task["stage"] in (DRAFT, REFINE):
        _add_memory_items(context, kernel, task, deps, query, rng)
    return context


def _add_memory_items(context: Context, kernel: KernelTask, task: TaskState, deps: Deps, query: str,
                      rng: np.random.Generator) -> None:
    stage, sig, memory = task["stage"], context["signature"], deps.memory
    kinds = [EntryKind.EXPERIENCE, EntryKind.TRACE] if stage == DRAFT else [EntryKind.TRACE, EntryKind.PRACTICE]
    items = memory.retrieve(query, stage, sig, kinds, rng=rng)
    groups = {"items": items}
    start = context["start"]
    if stage == REFINE and start and start.get("memory_id"):
        children = memory.store.find("parent_id = ?", (start["memory_id"],), limit=200)
        groups["children"] = memory.rank(query, children, stage, sig)[: deps.config.children_top_n]
        matched = memory.store.find("kind = ? AND bottleneck = ? AND task != ?",
                                    (EntryKind.PRACTICE.value, start.get("bottleneck") or "", kernel.qualified_name),
                                    limit=200)
        groups["bottleneck_examples"] = memory.rank(query, matched, stage, sig)[: deps.config.bottleneck_top_n]
    for name in ("bottleneck_examples", "children", "items"):
        chosen = groups.get(name, [])
        context[name] = [_text(r, deps) for r in chosen]
        context["q_ids"] += [r.entry.id for r in chosen if r.entry.id not in context["q_ids"]]
        context["hints"] += [r.entry.meta for r in chosen]
    emit("evokernel.retrieved", task=kernel.qualified_name, attempt=task["attempts"] + 1, stage=stage, signature=sig,
         entries=[{"id": r.entry.id, "kind": r.entry.kind.value, "group": name, "similarity": round(r.similarity, 4),
                   "q": round(r.q, 4)} for name in ("items", "children", "bottleneck_examples")
                  for r in groups.get(name, [])])


def choose_start_point(kernel: KernelTask, task: TaskState, deps: Deps, sig: str,
                       rng: np.random.Generator) -> StartPoint | None:
    """evokernel: epsilon-greedy by start-point Q (ties to the faster); other methods: the fastest.

    The offline policy skips start points whose every neighbour was tried; None when none is left.
    """
    points = [p for p in task["start_points"] if p.get("latency_ms")]
    if deps.policy is not None:
        points = [p for p in points if not deps.policy.exhausted(kernel, p.get("params"), task["tried"])]
    if not points:
        return None
    if deps.config.method != "evokernel" or not all(p.get("memory_id") for p in points):
        return min(points, key=lambda p: p["latency_ms"])
    values = deps.memory.q(START_POINT, sig, [p["memory_id"] for p in points])
    candidates = [Candidate(p["memory_id"], -math.log(p["latency_ms"]), values[p["memory_id"]]) for p in points]
    epsilon = deps.config.start_point_epsilon
    chosen = epsilon_greedy(candidates, 1, deps.memory.config.epsilon if epsilon is None else epsilon, rng)[0]
    return next(p for p in points if p["memory_id"] == chosen.id)


def _last(task: TaskState) -> dict[str, Any] | None:
    """The previous attempt's code and feedback (the draft loop and the refine method show it)."""
    if not task["last_code_path"] or not Path(task["last_code_path"]).is_file():
        return None
    return {"status": task["last_status"], "feedback": task["last_feedback"],
            "code": Path(task["last_code_path"]).read_text()}


def _text(retrieved: Retrieved, deps: Deps) -> str:
    return retrieved.entry.text[: deps.config.entry_chars]
