"""The EvoKernel graph: retrieve -> generate -> verify -> learn -> route, one attempt per active task per round.

Each node handles every active task (in parallel, up to ``workers``) and LangGraph checkpoints the
state after each node, so a killed run resumes without repeating a finished attempt. Memory writes
and Q updates are keyed by (run, task, attempt) and applied once even when a node re-runs. Between
rounds the run may pause at an interrupt (``pause_every``, or a pause request) for a new budget and
guidance (see ``steer``).
"""

from __future__ import annotations

import zlib
from pathlib import Path
from typing import Any, TypedDict

import numpy as np
from langgraph.graph import END, START, StateGraph

from agents.runtime.interrupts import clear_pause_request, pause_requested
from agents.runtime.models.base import ChatModel
from agents.runtime.run import Run
from benchmarks.kernels.tasks import KernelTask
from memory.qmemory import qtable
from memory.qmemory.store import MemoryStore

from agents.evokernel.config import EvoKernelConfig
from agents.evokernel.context import Deps, build_context
from agents.evokernel.env import KernelEnv
from agents.evokernel.generate import generate
from agents.evokernel.learn import attempt_record, learn, summarise
from agents.evokernel.state import REFINE, apply_attempt, is_active, stop, with_budget
from agents.evokernel.steer import (acknowledge_guidance, ask_until_valid, latest_guidance, pause_question,
                                   record_guidance)
from agents.evokernel.taskinfo import slug
from agents.evokernel.workers import parallel_map


class GraphState(TypedDict, total=False):
    tasks: dict[str, dict[str, Any]]
    contexts: dict[str, dict[str, Any]]
    candidates: dict[str, dict[str, Any]]
    verdicts: dict[str, dict[str, Any]]
    round: int


class EvoKernelAgent:
    """Holds what the nodes share: run, config, kernels, harness, memory, policy and model."""

    def __init__(self, run: Run, config: EvoKernelConfig, kernels: list[KernelTask], env: KernelEnv, deps: Deps,
                 model: ChatModel | None, progress: Any = None):
        self.run, self.config, self.env, self.deps, self.model = run, config, env, deps, model
        self.kernels = {k.qualified_name: k for k in kernels}
        self.progress = progress
        self.ledger = MemoryStore(run.dir / "ledger.sqlite")

    def builder(self) -> StateGraph:
        graph = StateGraph(GraphState)
        for name in ("retrieve", "generate", "verify", "learn", "pause"):
            graph.add_node(name, getattr(self, name))
        graph.add_edge(START, "retrieve")
        graph.add_edge("retrieve", "generate")
        graph.add_edge("generate", "verify")
        graph.add_edge("verify", "learn")
        graph.add_conditional_edges("learn", self.route, {"retrieve": "retrieve", "pause": "pause", END: END})
        graph.add_conditional_edges("pause", self.route_after_pause, {"retrieve": "retrieve", END: END})
        return graph

    def rng(self, name: str, attempt: int, salt: int) -> np.random.Generator:
        """A generator fixed by (seed, task, attempt, purpose): the same draws on resume and in any worker order."""
        return np.random.default_rng([self.config.seed, zlib.crc32(name.encode()), attempt, salt])

    def retrieve(self, state: GraphState) -> dict[str, Any]:
        tasks, contexts = dict(state["tasks"]), {}
        for name, task in tasks.items():
            if not is_active(task, self.config.budget):
                continue
            if self._out_of_patience(task):
                tasks[name] = stop(task, f"offline policy: no new best in {self.config.offline_patience} refinements")
                continue
            context = build_context(self.kernels[name], task, self.deps, self.rng(name, task["attempts"] + 1, 0))
            if context.get("exhausted"):
                tasks[name] = stop(task, "offline policy: every neighbour of every start point was tried")
            else:
                contexts[name] = context
        return {"tasks": tasks, "contexts": contexts, "round": state.get("round", 0) + 1}

    def _out_of_patience(self, task: dict[str, Any]) -> bool:
        patience = self.config.offline_patience
        return (self.deps.policy is not None and patience is not None and task["stage"] == REFINE
                and task["attempts"] - task["best_attempt"] >= patience)

    def generate(self, state: GraphState) -> dict[str, Any]:
        tasks = dict(state["tasks"])
        guidance = latest_guidance(self.run)  # read now: guidance given while the run was stopped counts too
        if guidance and state["contexts"]:
            acknowledge_guidance(self.run, guidance, self.deps.policy.name if self.model is None else
                                 f"model: {self.model.name}", offline=self.model is None)

        def one(name: str) -> dict[str, Any] | None:
            task = tasks[name]
            return generate(self.kernels[name], task, {**state["contexts"][name], "guidance": guidance}, self.deps,
                            self.model, self.env.language, self.rng(name, task["attempts"] + 1, 1))

        produced = parallel_map(one, state["contexts"], self.config.workers)
        for name, candidate in produced.items():
            if candidate is None:
                tasks[name] = stop(tasks[name], "offline policy: " + ("no template instance left to try"
                                                                      if tasks[name]["attempts"] else
                                                                      "no template kernel computes this task"))
        return {"tasks": tasks, "candidates": {n: c for n, c in produced.items() if c is not None}}

    def verify(self, state: GraphState) -> dict[str, Any]:
        def one(name: str) -> tuple[dict[str, Any], dict[str, Any]]:
            candidate = dict(state["candidates"][name])
            path = self.run.artifacts / slug(name) / f"attempt_{candidate['attempt']:03d}.py"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(candidate["code"] or f"# no usable kernel in the model's reply\n# {candidate['error']}\n")
            candidate["code_path"] = str(path)
            outcome = (self.env.verify(self.kernels[name], candidate["code"]) if candidate["code"] is not None
                       else unusable_reply(candidate["error"]))
            self.run.emit("evokernel.verified", task=name, attempt=candidate["attempt"], status=outcome["status"],
                          latency_ms=outcome["latency_ms"], cached=outcome.get("cached", False))
            return candidate, outcome

        done = parallel_map(one, state["candidates"], self.config.workers)
        return {"candidates": {n: c for n, (c, _) in done.items()}, "verdicts": {n: v for n, (_, v) in done.items()}}

    def learn(self, state: GraphState) -> dict[str, Any]:
        """Summaries in parallel (model calls), then memory writes and Q updates one task at a time."""
        tasks = dict(state["tasks"])
        records = {name: attempt_record(tasks[name], state["candidates"][name], verdict)
                   for name, verdict in state["verdicts"].items()}
        codes = {name: Path(state["candidates"][name]["code_path"]).read_text() for name in records}

        def summary(name: str) -> Any:
            return summarise(self.kernels[name], tasks[name], records[name], self.deps, self.model, self.run.id,
                             codes[name])

        summaries = parallel_map(summary, records, self.config.workers)
        for name in sorted(records):
            record = learn(self.kernels[name], tasks[name], state["contexts"][name], records[name], self.deps,
                           self.run.id, codes[name], summaries[name])
            tasks[name] = apply_attempt(tasks[name], record, self.config.budget)
            self._announce(name, record)
        if self.progress is not None:
            self.progress.update(step=sum(t["attempts"] for t in tasks.values()), best=_best_text(tasks),
                                 cost=self.run.totals.cost_usd)
        return {"tasks": tasks, "contexts": {}, "candidates": {}, "verdicts": {}}

    def _announce(self, name: str, record: dict[str, Any]) -> None:
        """One ``evokernel.attempt`` event per finished attempt, even if this node runs again on resume."""
        with self.ledger.transaction() as conn:
            first = qtable.claim(conn, f"{name}/{record['attempt']}")
        if first:
            self.run.emit("evokernel.attempt", task=name, attempt=record["attempt"], stage=record["stage"],
                          status=record["status"], feasible=record["feasible"], latency_ms=record["latency_ms"],
                          reward=record["reward"], applied_reward=record.get("applied_reward"),
                          q_update=record.get("q_update"))

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

    def _set_budget(self, budget: int, tasks: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
        previous = self.config.budget
        self.config = self.deps.config = self.config.model_copy(update={"budget": budget})
        self.run.update_meta(config={**self.run.config, "budget": budget})
        self.run.emit("budget.changed", by="answer", budget=budget, previous=previous)
        if self.progress is not None:
            self.progress.update(total=budget * len(tasks))
        return {name: with_budget(task, budget, self.config.method) for name, task in tasks.items()}


def unusable_reply(error: str) -> dict[str, Any]:
    """The verdict of a reply with no usable kernel: a failed attempt whose feedback says why."""
    return {"status": "parse_error", "feasible": False, "compiled": False, "latency_ms": None, "reference_ms": None,
            "bottleneck": None, "roofline_fraction": None, "simulated": False, "profile": "",
            "feedback": error, "extras": {}, "seconds": 0.0, "cached": False}


def _best_text(tasks: dict[str, dict[str, Any]]) -> str:
    correct = sum(1 for t in tasks.values() if t["first_feasible_attempt"] is not None)
    return f"{correct}/{len(tasks)} correct"
