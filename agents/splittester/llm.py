"""The model-driven policy: best-of-N synthesis, layout scripts for tests and splits, and the judges."""

from __future__ import annotations

from sandboxes.telemetry import emit

from agents.runtime.models.base import ChatModel, ModelReplyError
from agents.runtime.models.parsing import complete_parsed
from agents.splittester import prompts
from agents.splittester.evidence import Evidence, distinct_members
from agents.splittester.parsing import parse_choice, parse_deck
from agents.splittester.splitter import disagreement_text, history
from agents.splittester.testgen import GeneratedTest, generate_tests
from benchmarks.drc.spec import TaskSpec

NO_DECK = 'raise "the model gave no usable deck"\n'
"""Stands in for an unusable reply so that the candidate counts as a deck that fails to run."""


class ModelPolicy:
    """Every role of the pipeline asked of ``model``; layout scripts run in ``sandbox``."""

    def __init__(self, model: ChatModel, sandbox, *, with_reference: bool = True, test_layouts: int = 6,
                 script_retries: int = 2, temperature: float = 0.8, blind_limit: int = 8):
        self.model = model
        self.name = f"model: {model.name}"
        self.sandbox = sandbox
        self.with_reference = with_reference
        self.test_layouts = test_layouts
        self.script_retries = script_retries
        self.temperature = temperature
        self.blind_limit = blind_limit

    def synthesize(self, spec: TaskSpec, count: int) -> list[str]:
        messages = prompts.synthesis_messages(spec, self.with_reference)
        # The sample number keeps the N requests distinct, so a response cache or a replay serves N samples.
        return [self._deck(spec, messages[:-1] + [{"role": "user", "content": messages[-1]["content"]
                                                   + f"\n(sample {index + 1} of {count})"}])
                for index in range(count)]

    def _deck(self, spec: TaskSpec, messages: list[dict]) -> str:
        try:
            return complete_parsed(self.model, messages, parse_deck, temperature=self.temperature)
        except ModelReplyError as error:
            emit("splittester.no_deck", task=spec.id, error=str(error))
            return NO_DECK

    def initial_tests(self, spec: TaskSpec) -> list[GeneratedTest]:
        return generate_tests(self.model, prompts.tests_messages(spec, self.test_layouts), self.sandbox,
                              spec.categories, self.script_retries, prefix="gen-")

    def propose(self, spec: TaskSpec, evidence: Evidence, members: list[int]) -> list[GeneratedTest]:
        messages = prompts.split_messages(spec, [evidence.decks[m] for m in members], history(evidence, members[0]))
        tests = generate_tests(self.model, messages, self.sandbox, spec.categories, self.script_retries,
                               prefix=f"split{len(evidence.tests)}-")
        return tests[:1]

    def judge(self, spec: TaskSpec, evidence: Evidence, finalists: list[int]) -> int:
        decks = [evidence.decks[c] for c in finalists]
        messages = prompts.judge_messages(spec, decks, disagreement_text(spec, evidence, finalists))
        return self._choice(spec, messages, len(decks))

    def blind_judge(self, spec: TaskSpec, decks: list[str]) -> int | None:
        """An LLM judge without execution over the distinct candidates (at most ``blind_limit``)."""
        shown = distinct_members(Evidence(decks, spec.categories), list(range(len(decks))), self.blind_limit)
        pick = self._choice(spec, prompts.blind_judge_messages(spec, [decks[i] for i in shown]), len(shown))
        return shown[pick]

    def _choice(self, spec: TaskSpec, messages: list[dict], count: int) -> int:
        try:
            return complete_parsed(self.model, messages, lambda text: parse_choice(text, count))
        except ModelReplyError as error:
            emit("splittester.judge_failed", task=spec.id, error=str(error))
            return 0
