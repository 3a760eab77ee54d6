"""Semantic lifting with a model, in batches that fit a token budget.

Per class (with its methods) and per function the model returns feature phrases ("verb + object");
per file a one-line summary; then it places files into areas, categories and subcategories.
Anything the model leaves out falls back to the offline lifter, and the counts say how often.
"""

from __future__ import annotations

import json
import re
from typing import Any, Callable

from sandboxes.settings import Config
from sandboxes.telemetry import emit

from agents.rpg.lift_offline import OfflineLifter, attach, layout_path
from agents.runtime.models.base import ChatModel, ModelReplyError
from agents.runtime.models.parsing import complete_parsed
from memory.rpg.graph import RPG, NodeKind

_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$", re.MULTILINE)
UNIT_PROMPT = ("For each code unit below, give 1-3 short features: lowercase 'verb object' phrases saying what it "
               "does (e.g. 'parse http header'). Reply with only a JSON object mapping every unit id to a list of "
               "phrases.")
FILE_PROMPT = ("For each file below, write a one-line summary of its purpose. Reply with only a JSON object mapping "
               "every path to its summary.")
PLACE_PROMPT = ("Organise these files into a functional hierarchy: for each file give [area, category, subcategory] "
                "(short lowercase names; reuse names across files; subcategory may be omitted). Reply with only a "
                "JSON object mapping every path to its list.")


class ModelLiftConfig(Config):
    """Batching of model lifting."""

    batch_tokens: int = 6000
    """Token budget of one request, estimated as characters / 4."""
    code_lines: int = 30
    """Lines of code shown for each class or function."""


def parse_json_object(text: str) -> dict[str, Any]:
    data = json.loads(_FENCE.sub("", text.strip()))
    if not isinstance(data, dict):
        raise ValueError("expected a JSON object")
    return data


def pack(blocks: list[tuple[str, str]], budget_tokens: int) -> list[list[tuple[str, str]]]:
    """Greedy batches of ``(key, text)`` blocks whose estimated tokens stay within the budget."""
    batches: list[list[tuple[str, str]]] = [[]]
    used = 0
    for key, text in blocks:
        cost = len(text) // 4 + 1
        if batches[-1] and used + cost > budget_tokens:
            batches.append([])
            used = 0
        batches[-1].append((key, text))
        used += cost
    return [b for b in batches if b]


class ModelLifter:
    """Lifts with ``model``; ``read_lines(path)`` supplies the code shown to it."""

    name = "model"

    def __init__(self, model: ChatModel, read_lines: Callable[[str], list[str]], config: ModelLiftConfig | None = None):
        self.model, self.read_lines = model, read_lines
        self.config = config or ModelLiftConfig()
        self.offline = OfflineLifter()
        self.policy = f"llm lifter: {model.name}"
        self.counts = {"requests": 0, "unusable_replies": 0, "fallback_units": 0, "fallback_files": 0,
                       "fallback_placements": 0}

    def _ask(self, instruction: str, blocks: list[tuple[str, str]]) -> dict[str, Any]:
        answers: dict[str, Any] = {}
        for batch in pack(blocks, self.config.batch_tokens):
            prompt = instruction + "\n\n" + "\n\n".join(text for _, text in batch)
            self.counts["requests"] += 1
            try:
                answers.update(complete_parsed(self.model, [{"role": "user", "content": prompt}], parse_json_object))
            except ModelReplyError as error:  # this batch falls back to the offline lifter
                self.counts["unusable_replies"] += 1
                emit("rpg.lift_unusable", batch=[key for key, _ in batch][:20], error=str(error))
        return answers

    def _unit_block(self, rpg: RPG, unit_id: str, wanted: set[str]) -> str:
        node = rpg.node(unit_id)
        code = "\n".join(self.read_lines(node.path)[node.start - 1: node.start - 1 + self.config.code_lines])
        members = [f"- {m}: {rpg.node(m).signature}" for m in rpg.descendants(unit_id) if m in wanted]
        return "\n".join([f"### {unit_id} ({node.kind.value})", code, *members])

    def lift_units(self, rpg: RPG, unit_ids: list[str]) -> None:
        wanted = set(unit_ids)
        tops = [u for u in unit_ids if rpg.parent(u) not in wanted]
        answers = self._ask(UNIT_PROMPT, [(u, self._unit_block(rpg, u, wanted)) for u in tops])
        missing = []
        for unit_id in unit_ids:
            phrases = answers.get(unit_id)
            if isinstance(phrases, list) and phrases and all(isinstance(p, str) for p in phrases):
                rpg.node(unit_id).features = [p.strip().lower() for p in phrases[:3]]
            else:
                missing.append(unit_id)
        self.counts["fallback_units"] += len(missing)
        self.offline.lift_units(rpg, missing)

    def summarise_files(self, rpg: RPG, file_ids: list[str]) -> None:
        blocks = [(f, f"### {f}\n" + "\n".join(f"- {rpg.node(c).name}: {', '.join(rpg.node(c).features)}"
                                                for c in rpg.children(f))) for f in file_ids]
        answers = self._ask(FILE_PROMPT, blocks)
        missing = [f for f in file_ids if not isinstance(answers.get(f), str)]
        for file_id in file_ids:
            if file_id not in missing:
                rpg.node(file_id).summary = answers[file_id].strip()
                rpg.node(file_id).features = [rpg.node(file_id).summary]
        self.counts["fallback_files"] += len(missing)
        self.offline.summarise_files(rpg, missing)

    def place_files(self, rpg: RPG, file_ids: list[str]) -> None:
        areas = sorted(n.name for n in rpg.nodes(NodeKind.AREA))
        header = PLACE_PROMPT + (f"\nExisting areas: {', '.join(areas)}" if areas else "")
        answers = self._ask(header, [(f, f"- {f}: {rpg.node(f).summary}") for f in file_ids])
        for file_id in file_ids:
            names = answers.get(file_id)
            if isinstance(names, list) and 1 <= len(names) <= 3 and all(isinstance(n, str) and n for n in names):
                attach(rpg, file_id, [n.strip().lower().replace("/", "-") for n in names])
            else:
                self.counts["fallback_placements"] += 1
                attach(rpg, file_id, layout_path(file_id))
