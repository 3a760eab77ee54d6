"""The LLM roles of PathWise: policy agent, world model and the two routed critics.

Each role builds its own prompt from only what it may see (``prompts``); the critics' replies are
returned to the search, which routes policy advice to the policy and code advice to the world model.
"""

from __future__ import annotations

from agents.pathwise import prompts
from agents.pathwise.prompts import Action, Candidate
from agents.runtime.models.base import ChatModel, ModelReplyError
from agents.runtime.models.parsing import complete_parsed
from benchmarks.ahd.problem import Problem
from memory.entailment.graph import HeuristicNode
from sandboxes.telemetry import emit


class LLMRoles:
    """All four roles played by one chat model."""

    def __init__(self, model: ChatModel):
        self.model = model
        self.name = f"llm: {getattr(model, 'name', 'model')}"

    def propose(self, problem: Problem, nodes: list[HeuristicNode], n_actions: int, advice: str,
                seed: int = 0) -> list[Action]:
        """The policy's actions (``seed`` is for policies that draw at random; the model ignores it)."""
        known = {n.id for n in nodes}
        messages = prompts.policy_messages(problem, nodes, n_actions, advice)
        try:
            return complete_parsed(self.model, messages, lambda text: prompts.parse_actions(text, known, n_actions))
        except ModelReplyError as error:
            emit("pathwise.policy_fallback", error=str(error))
            best = min(nodes, key=lambda n: n.fitness)
            return [Action([best.id], "Improve this heuristic's scoring rule.")]

    def rollout(self, problem: Problem, parents: list[HeuristicNode], directive: str, advice: str,
                perturb: bool, seed: int) -> Candidate | None:
        messages = prompts.world_model_messages(problem, parents, directive, advice, perturb)
        try:
            return complete_parsed(self.model, messages, lambda text: prompts.parse_candidate(text, problem.function_name))
        except ModelReplyError as error:
            emit("pathwise.rollout_unusable", error=str(error))
            return None

    def policy_advice(self, problem: Problem, outcomes: list[tuple[Action, float | None]]) -> str:
        return self.model.complete(prompts.policy_critic_messages(problem, outcomes)).content.strip()

    def world_model_advice(self, problem: Problem, best: tuple[str, str], worst: tuple[str, str]) -> str:
        return self.model.complete(prompts.world_model_critic_messages(problem, best, worst)).content.strip()
