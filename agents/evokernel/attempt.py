"""One task's attempt as its own checkpointed unit: generate the candidate, then verify it.

The graph fans out one ``attempt`` per active task (LangGraph ``Send``); LangGraph saves each unit's
result as soon as it finishes, so a run killed in the middle of a round resumes with only the
unfinished attempts. The verdict is also written ahead to the run's ledger before the attempt is
announced (``evokernel.verified``), so even a kill between the two does not verify it twice.
"""

from __future__ import annotations

import threading
import zlib
from typing import Any, TypedDict

import numpy as np

from agents.runtime.models.base import ChatModel
from agents.runtime.run import Run
from benchmarks.kernels.tasks import KernelTask

from agents.evokernel.context import Deps
from agents.evokernel.env import KernelEnv
from agents.evokernel.generate import generate
from agents.evokernel.records import Candidate, Context, Outcome, TaskState, Verdict
from agents.evokernel.steer import acknowledge_guidance, latest_guidance
from agents.evokernel.taskinfo import slug
from agents.evokernel.verdicts import AttemptLedger
from agents.evokernel.workers import Slots


class AttemptUnit(TypedDict):
    """What the fan-out hands one attempt: the task as retrieve left it, its context, which of the task's
    attempts of this round it is (``slot``) and how early it should start (``priority``)."""

    name: str
    task: TaskState
    context: Context
    slot: int
    priority: float


def seeded_rng(seed: int, name: str, attempt: int, salt: int) -> np.random.Generator:
    """A generator fixed by (seed, task, attempt, purpose): the same draws on resume and in any order."""
    return np.random.default_rng([seed, zlib.crc32(name.encode()), attempt, salt])


class Attempter:
    """Runs attempt units: at most ``workers`` at once, each verified once per run."""

    def __init__(self, run: Run, kernels: dict[str, KernelTask], env: KernelEnv, deps: Deps,
                 model: ChatModel | None, on_done: Any = None):
        self.run, self.kernels, self.env, self.deps, self.model = run, kernels, env, deps, model
        self.slots = Slots(deps.config.workers)
        self.ledger = AttemptLedger(run.dir / "ledger.sqlite")
        self.on_done = on_done
        self._guidance_lock = threading.Lock()

    def __call__(self, unit: AttemptUnit) -> dict[str, Any]:
        name, task, context, slot = unit["name"], unit["task"], unit["context"], unit["slot"]
        with self.slots.hold(unit["priority"]):
            guidance = self._guidance()
            candidate = self._candidate(name, task, {**context, "guidance": guidance}, slot)
            outcome: Outcome = ({"stopped": _nothing_left(task)} if candidate is None else
                                self._verify(name, candidate, context))
        if self.on_done is not None and "verdict" in outcome:
            self.on_done(name, outcome)
        return {"outcomes": {f"{name}#{slot}": {**outcome, "name": name, "slot": slot}}}

    def _candidate(self, name: str, task: TaskState, context: Context, slot: int) -> Candidate | None:
        """The task's ``slot``-th proposal of this round: the offline policy's proposals are deterministic, so
        this unit repeats the earlier slots' proposals to know what they tried (only the offline policy gets
        more than one slot)."""
        tried, candidate = list(task["tried"]), None
        for number in range(slot + 1):
            view = TaskState(**{**task, "attempts": task["attempts"] + number, "tried": tried})
            rng = seeded_rng(self.deps.config.seed, name, view["attempts"] + 1, 1)
            candidate = generate(self.kernels[name], view, context, self.deps, self.model, self.env.language, rng)
            if candidate is None:
                return None
            tried = tried + [candidate["params_key"]]
        return candidate

    def _guidance(self) -> str | None:
        """The latest guidance (read now: guidance given while the run was stopped counts), acknowledged once."""
        guidance = latest_guidance(self.run)
        if guidance:
            with self._guidance_lock:
                acknowledge_guidance(self.run, guidance, self.deps.policy.name if self.model is None else
                                     f"model: {self.model.name}", offline=self.model is None)
        return guidance

    def _verify(self, name: str, candidate: Candidate, context: Context) -> Outcome:
        path = self.run.artifacts / slug(name) / f"attempt_{candidate['attempt']:03d}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(candidate["code"] or f"# no usable kernel in the model's reply\n# {candidate['error']}\n")
        candidate = {**candidate, "code_path": str(path)}
        code = path.read_text()
        saved = self.ledger.verdict(name, candidate["attempt"], code)
        if saved is not None:
            return {"candidate": candidate, "verdict": saved, "context": context}
        outcome = (self.env.verify(self.kernels[name], candidate["code"]) if candidate["code"] is not None
                   else unusable_reply(candidate["error"]))
        self.slots.check()  # a verdict from verifiers being shut down is not kept
        self.ledger.save(name, candidate["attempt"], code, outcome)
        self.run.emit("evokernel.verified", task=name, attempt=candidate["attempt"], status=outcome["status"],
                      latency_ms=outcome["latency_ms"], cached=outcome.get("cached", False))
        return {"candidate": candidate, "verdict": outcome, "context": context}

    def close(self) -> None:
        self.ledger.close()


def _nothing_left(task: TaskState) -> str:
    return "offline policy: " + ("no template instance left to try" if task["attempts"] else
                                 "no template kernel computes this task")


def unusable_reply(error: str | None) -> Verdict:
    """The verdict of a reply with no usable kernel: a failed attempt whose feedback says why."""
    return {"status": "parse_error", "feasible": False, "compiled": False, "latency_ms": None, "reference_ms": None,
            "bottleneck": None, "roofline_fraction": None, "simulated": False, "profile": "",
            "feedback": error or "", "extras": {}, "seconds": 0.0, "cached": False}
