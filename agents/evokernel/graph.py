"""The EvoKernel graph: retrieve -> attempt (one unit per active task) -> learn -> route, round after round.

retrieve builds every active task's context; a LangGraph ``Send`` fans out one ``attempt`` unit per
task (generate, then verify, see ``attempt``), at most ``workers`` at a time; learn writes memory
and Q updates one task at a time, in a fixed order. Each finished attempt unit is checkpointed on its
own, so a killed run resumes without repeating one. Memory writes and Q updates are keyed by (run,
task, attempt) and applied once even when learn re-runs. Tasks may run in waves (``waves``): a wave
starts when the one before is done, so its tasks retrieve what the earlier waves wrote. Between
rounds the run may pause at an interrupt (``pause_every``, or a pause request; see ``steer``).
"""

from __future__ import annotations

import math
import random
import threading
from pathlib import Path
from typing import Annotated, Any, TypedDict

from langgraph.graph import END, START, StateGraph
from langgraph.types import Send

from agents.runtime.interrupts import clear_pause_request, pause_requested
from agents.runtime.models.base import ChatModel
from agents.runtime.run import Run
from benchmarks.kernels.tasks import KernelTask
from benchmarks.kernels.verifier.result import Status

from agents.evokernel.attempt import Attempter, seeded_rng
from agents.evokernel.config import EvoKernelConfig
from agents.evokernel.context import Deps, build_context
from agents.evokernel.env import KernelEnv
from agents.evokernel.learn import attempt_record, learn, summarise
from agents.evokernel.memories import RunMemory
from agents.evokernel.records import AttemptRecord, Context, Outcome, TaskState
from agents.evokernel.state import AT_BOUND, DRAFT, REFINE, apply_attempt, at_roofline, is_active, stop, with_budget
from agents.evokernel.steer import ask_until_valid, pause_question, record_guidance
from agents.evokernel.workers import parallel_map


FEEDBACK_CHARS = 2000
"""How much of the verifier's feedback an ``evokernel.attempt`` event keeps (the dashboard shows it as the reason)."""


def merge_outcomes(current: dict[str, Outcome] | None, update: dict[str, Outcome] | None) -> dict[str, Outcome]:
    """Attempt units add their outcome; learn clears them (``None``)."""
    return {} if update is None else {**(current or {}), **update}


class GraphState(TypedDict, total=False):
    tasks: dict[str, TaskState]
    contexts: dict[str, Context]
    outcomes: Annotated[dict[str, Outcome], merge_outcomes]
    round: int


def assign_waves(names: list[str], waves: int, seed: int) -> dict[str, int]:
    """Each task's wave: the names in a seeded shuffled order, cut into ``waves`` near-equal parts."""
    order = sorted(names)
    random.Random(seed).shuffle(order)
    waves = max(1, min(waves, len(order)))
    return {name: index * waves // len(order) for index, name in enumerate(order)}


def current_wave(tasks: dict[str, TaskState], budget: int) -> int | None:
    """The earliest wave with an active task (None when every task is done)."""
    active = [t.get("wave", 0) for t in tasks.values() if is_active(t, budget)]
    return min(active) if active else None


class EvoKernelAgent:
    """Holds what the nodes share: run, config, kernels, harness, memory, policy and model."""

    def __init__(self, run: Run, config: EvoKernelConfig, kernels: list[KernelTask], env: KernelEnv, deps: Deps,
                 model: ChatModel | None, progress: Any = None, memories: RunMemory | None = None):
        self.run, self.config, self.env, self.deps, self.model = run, config, env, deps, model
        self.memories = memories
        self.kernels = {k.qualified_name: k for k in kernels}
        self.progress = progress
        self.attempter = Attempter(run, self.kernels, env, deps, model, on_done=self._attempt_done)
        self._finished, self._done, self._correct = 0, 0, set()
        self._count_lock = threading.Lock()

    def builder(self) -> StateGraph:
        graph = StateGraph(GraphState)
        graph.add_node("retrieve", self.retrieve)
        graph.add_node("attempt", self.attempter)
        graph.add_node("learn", self.learn)
        graph.add_node("pause", self.pause)
        graph.add_edge(START, "retrieve")
        graph.add_conditional_edges("retrieve", self.fan_out, ["attempt", "learn"])
        graph.add_edge("attempt", "learn")
        graph.add_conditional_edges("learn", self.route, {"retrieve": "retrieve", "pause": "pause", END: END})
        graph.add_conditional_edges("pause", self.route_after_pause, {"retrieve": "retrieve", END: END})
        return graph

    def retrieve(self, state: GraphState) -> dict[str, Any]:
        tasks, contexts = dict(state["tasks"]), {}
        wave = current_wave(tasks, self.config.budget)
        if wave is not None and self.memories is not None:
            self.deps.memory = self.memories.for_wave(wave)
        for name, task in tasks.items():
            if not is_active(task, self.config.budget) or task.get("wave", 0) != wave:
                continue
            reason = self._stop_reason(task)
            if reason:
                tasks[name] = stop(task, reason)
                continue
            rng = seeded_rng(self.config.seed, name, task["attempts"] + 1, 0)
            context = build_context(self.kernels[name], task, self.deps, rng)
            if context.get("exhausted"):
                tasks[name] = stop(task, "offline policy: every neighbour of every start point was tried")
            else:
                contexts[name] = context
        for name, context in contexts.items():
            context["width"] = self._width(tasks[name], len(contexts))
        self.show_progress(tasks)
        return {"tasks": tasks, "contexts": contexts, "outcomes": None, "round": state.get("round", 0) + 1}

    def _stop_reason(self, task: TaskState) -> str:
        """Why this task should make no more attempts ('' when it should)."""
        if at_roofline(task, self.config.roofline_stop):
            return AT_BOUND
        patience = self.config.offline_patience
        if (self.deps.policy is not None and patience is not None and task["stage"] == REFINE
                and task["attempts"] - task["best_attempt"] >= patience):
            return f"offline policy: no new best in {patience} refinements"
        return ""

    def _width(self, task: TaskState, active: int) -> int:
        """How many attempts the task makes this round: one, or, when fewer tasks than workers are left, the
        offline policy's next few refinements at once (never past the budget or the policy's patience)."""
        if self.deps.policy is None or task["stage"] == DRAFT or active >= self.config.workers:
            return 1
        width = min(math.ceil(self.config.workers / active), self.config.budget - task["attempts"])
        patience = self.config.offline_patience
        if task["stage"] == REFINE and patience is not None:
            width = min(width, patience - (task["attempts"] - task["best_attempt"]))
        return max(1, width)

    def fan_out(self, state: GraphState) -> list[Send] | str:
        """One attempt unit per task and slot, the slowest tasks' first; straight to learn when there is none."""
        sends = [Send("attempt", {"name": name, "task": state["tasks"][name], "context": context, "slot": slot,
                                  "priority": state["tasks"][name].get("seconds", 0.0)})
                 for name, context in sorted(state["contexts"].items(),
                                             key=lambda item: (-state["tasks"][item[0]].get("seconds", 0.0), item[0]))
                 for slot in range(context.get("width", 1))]
        return sends or "learn"

    def learn(self, state: GraphState) -> dict[str, Any]:
        """Summaries in parallel (model calls), then memory writes and Q updates one attempt at a time, in a
        fixed order (task name, then slot)."""
        tasks = dict(state["tasks"])
        records, stopped = self._records(tasks, state.get("outcomes") or {})
        codes = {key: Path(record["code_path"]).read_text() for key, (_, record, _) in records.items()}

        def summary(key: str) -> Any:
            name, record, _ = records[key]
            return summarise(self.kernels[name], tasks[name], record, self.deps, self.model, self.run.id, codes[key])

        summaries = parallel_map(summary, records, self.config.workers)
        for key, (name, record, context) in records.items():
            record = learn(self.kernels[name], tasks[name], context, record, self.deps, self.run.id, codes[key],
                           summaries[key])
            tasks[name] = apply_attempt(tasks[name], record, self.config.budget)
            self._announce(name, record)
        for name, reason in stopped.items():
            tasks[name] = stop(tasks[name], reason)
        self.show_progress(tasks)
        return {"tasks": tasks, "contexts": {}, "outcomes": None}

    def _records(self, tasks: dict[str, TaskState], outcomes: dict[str, Outcome]
                 ) -> tuple[dict[str, tuple[str, AttemptRecord, Context]], dict[str, str]]:
        """Each verified attempt's record, in learning order, rewarded against the best before it; and the tasks
        whose policy had nothing left (a later slot finding nothing is no reason to stop)."""
        records: dict[str, tuple[str, AttemptRecord, Context]] = {}
        stopped: dict[str, str] = {}
        for key in sorted(outcomes, key=lambda k: (outcomes[k]["name"], outcomes[k]["slot"])):
            outcome, name = outcomes[key], outcomes[key]["name"]
            if "stopped" in outcome:
                if outcome["slot"] == 0:
                    stopped[name] = outcome["stopped"]
                continue
            if outcome["verdict"]["status"] == Status.TASK_ERROR.value:  # the task's fault: not learnt from
                stopped[name] = f"the task cannot judge kernels: {outcome['verdict']['feedback']}"
                continue
            best = min([r["latency_ms"] for n, r, _ in records.values() if n == name and r["feasible"]
                        and r["latency_ms"]] + ([tasks[name]["best_ms"]] if tasks[name]["best_ms"] else []),
                       default=None)
            records[key] = (name, attempt_record({**tasks[name], "best_ms": best}, outcome["candidate"],
                                                 outcome["verdict"]), outcome["context"])
        return records, stopped

    def _announce(self, name: str, record: AttemptRecord) -> None:
        """One ``evokernel.attempt`` event per finished attempt, even if this node runs again on resume."""
        if self.attempter.ledger.claim(f"attempt/{name}/{record['attempt']}"):
            self.run.emit("evokernel.attempt", task=name, attempt=record["attempt"], stage=record["stage"],
                          status=record["status"], feasible=record["feasible"], latency_ms=record["latency_ms"],
                          reference_ms=record.get("reference_ms"), start_point=record.get("start_point"),
                          code_path=record.get("code_path"), feedback=(record.get("feedback") or "")[:FEEDBACK_CHARS],
                          mutation=record.get("mutation"), bottleneck=record.get("bottleneck"),
                          reward=record["reward"], applied_reward=record.get("applied_reward"),
                          q_update=record.get("q_update"))

    def _attempt_done(self, name: str, outcome: Outcome) -> None:
        """Count an attempt the moment its verdict is in (called from the attempt's thread)."""
        with self._count_lock:
            self._finished += 1
            if outcome["verdict"]["feasible"]:
                self._correct.add(name)
            finished, best = self._finished, self._best_text()
        if self.progress is not None:
            self.progress.update(step=finished, best=best, cost=self.run.totals.cost_usd)

    def show_progress(self, tasks: dict[str, TaskState]) -> None:
        """Attempts finished, an estimate of how many there will be, and how many tasks are correct and done."""
        with self._count_lock:
            self._finished = sum(t["attempts"] for t in tasks.values())
            self._correct = {n for n, t in tasks.items() if t["first_feasible_attempt"] is not None}
            self._done = sum(1 for t in tasks.values() if not is_active(t, self.config.budget))
            finished, best = self._finished, self._best_text()
        if self.progress is not None:
            self.progress.update(step=finished, total=finished + sum(self._expected_left(t) for t in tasks.values()),
                                 best=best, cost=self.run.totals.cost_usd)

    def _best_text(self) -> str:
        return f"{len(self._correct)}/{len(self.kernels)} correct, {self._done} done"

    def _expected_left(self, task: TaskState) -> int:
        """Attempts this task will still make if nothing new turns up (model runs: the rest of the budget)."""
        if not is_active(task, self.config.budget):
            return 0
        left = self.config.budget - task["attempts"]
        patience = self.config.offline_patience
        if self.deps.policy is None or patience is None:
            return left
        if task["stage"] == REFINE:
            return max(1, min(left, patience - (task["attempts"] - task["best_attempt"])))
        return min(left, 1 + patience)

    def route(self, state: GraphState) -> str:
        """Another round, a pause for the user first, or the end."""
        if self.route_after_pause(state) == END:
            return END
        return "pause" if self._periodic_pause(state) or pause_requested(self.run) else "retrieve"

    def route_after_pause(self, state: GraphState) -> str:
        active = any(is_active(t, self.config.budget) for t in state["tasks"].values())
        return "retrieve" if active else END

    def _periodic_pause(self, state: GraphState) -> bool:
        every = self.config.pause_every
        return every is not None and state.get("round", 0) % every == 0

    def pause(self, state: GraphState) -> dict[str, Any]:
        """Wait at an interrupt; the answer may set a new budget (saved in the run's config) and add guidance."""
        clear_pause_request(self.run)
        every = self.config.pause_every
        reason = ("every round" if every == 1 else f"every {every} rounds") if self._periodic_pause(state) \
            else "requested"
        answer = ask_until_valid(pause_question(state, self.config.budget, reason))
        tasks = dict(state["tasks"])
        if answer.budget is not None and answer.budget != self.config.budget:
            tasks = self._set_budget(answer.budget, tasks)
        if answer.guidance:
            record_guidance(self.run, answer.guidance, by="answer")
        self.run.emit("evokernel.steered", budget=self.config.budget, guidance=answer.guidance)
        return {"tasks": tasks}

    def _set_budget(self, budget: int, tasks: dict[str, TaskState]) -> dict[str, TaskState]:
        previous = self.config.budget
        self.config = self.deps.config = self.config.model_copy(update={"budget": budget})
        self.run.update_meta(config={**self.run.config, "budget": budget})
        self.run.emit("budget.changed", by="answer", budget=budget, previous=previous)
        tasks = {name: with_budget(task, budget, self.config.method) for name, task in tasks.items()}
        self.show_progress(tasks)
        return tasks

    def interrupt(self) -> None:
        """Ctrl-C: queued attempts are dropped at once, and the verifiers are shut down (in a thread: this runs
        in a signal handler), so attempts being verified end now; none of their results is kept."""
        self.attempter.slots.stop()
        threading.Thread(target=self.env.stop_verifiers, name="evokernel-interrupt", daemon=True).start()

    def close(self, wait_s: float = 0.0) -> None:
        """Stop the attempt units (those still running drop their results) and close the ledger."""
        self.attempter.slots.stop(wait_s)
        self.attempter.close()
