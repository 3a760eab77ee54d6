"""Localisers for the repository benchmark: ``rpg`` (the agent, or its offline policy) and ``bm25``.

Each builds (once per commit, cached as SQLite) the RPG of the instance's checkout and ranks
locations; the harness in ``benchmarks.repo`` scores them.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from benchmarks.repo.instances import Instance
from benchmarks.repo.localizer import Prediction

from agents.rpg.build import EncodeConfig, build_rpg
from agents.rpg.lift_offline import OfflineLifter
from agents.rpg.localize_agent import AgentConfig, localize_with_model, offline_state
from agents.rpg.localize_offline import POLICY, PropagationConfig
from agents.rpg.source import read_directory
from agents.runtime.models.base import ChatModel, ChatResponse
from memory.rpg import store
from memory.rpg.graph import RPG, NodeKind
from tools.rpg.workspace import RPGWorkspace

BM25_POLICY = "baseline: BM25 over code chunks, no graph"


class GraphCache:
    """One RPG per checkout, built with the offline lifter and kept as SQLite beside the worktrees."""

    def __init__(self, root: str | Path, config: EncodeConfig | None = None):
        self.root = Path(root)
        self.config = config or EncodeConfig()
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()
        self._loaded: dict[str, RPGWorkspace] = {}

    def workspace(self, checkout: Path) -> RPGWorkspace:
        key = str(checkout.resolve())
        with self._guard:
            lock = self._locks.setdefault(key, threading.Lock())
        with lock:
            if key not in self._loaded:
                self._loaded[key] = RPGWorkspace(self._graph(checkout), root=checkout)
            return self._loaded[key]

    def _graph(self, checkout: Path) -> RPG:
        path = self.root / f"{checkout.parent.name}__{checkout.name}.rpg.sqlite"
        if path.is_file():
            return store.load_sqlite(path)
        rpg, _ = build_rpg(read_directory(checkout, self.config.max_file_bytes), OfflineLifter(), self.config,
                           name=checkout.parent.name, commit=checkout.name)
        store.save_sqlite(rpg, path)
        return rpg


class _Tally:
    """Counts tokens and cost of the calls made through it (per instance)."""

    def __init__(self, model: ChatModel):
        self.model, self.name, self.tokens, self.cost_usd = model, model.name, 0, 0.0

    def complete(self, messages: list[dict[str, Any]], **kwargs: Any) -> ChatResponse:
        response = self.model.complete(messages, **kwargs)
        self.tokens += response.usage.total_tokens
        self.cost_usd += response.cost_usd
        return response


def function_level(rpg: RPG, entity: str) -> str:
    """Collapse nested functions onto the function or method that holds them (LocAgent's level)."""
    current = entity
    while (parent := rpg.parent(current)) and rpg.node(parent).kind in (NodeKind.FUNCTION, NodeKind.METHOD):
        current = parent
    return current


def prediction_from_state(workspace: RPGWorkspace, state: dict[str, Any], **extra: Any) -> Prediction:
    locations = state.get("locations", [])
    entities = [function_level(workspace.rpg, loc["entity"]) if loc["entity"] in workspace.rpg else loc["entity"]
                for loc in locations if loc.get("entity")]
    files = [loc["file"] for loc in locations if loc.get("file")]
    return Prediction.from_entities(entities, files=files, locations=locations, note=state.get("source", ""), **extra)


class RPGLocalizer:
    """The localisation agent with a model; its offline policy (BM25 + graph propagation) without."""

    needs_checkout = True

    def __init__(self, graphs: GraphCache, model: ChatModel | None, config: AgentConfig | None = None):
        self.graphs, self.model, self.config = graphs, model, config or AgentConfig()
        self.name = "rpg"
        self.policy = f"llm: {model.name}" if model else POLICY

    def localize(self, instance: Instance, checkout: Path | None) -> Prediction:
        workspace = self.graphs.workspace(checkout)
        if self.model is None:
            return prediction_from_state(workspace, offline_state(workspace, instance.problem_statement))
        tally = _Tally(self.model)
        state = localize_with_model(workspace, tally, instance.problem_statement, self.config)
        return prediction_from_state(workspace, state, cost_usd=tally.cost_usd, tokens=tally.tokens)


class BM25Localizer:
    """The retrieval baseline: BM25 over code chunks alone (no features, no graph)."""

    needs_checkout = True
    name = "bm25"
    policy = BM25_POLICY
    _weights = PropagationConfig(steps=0, name_bonus=0.0, feature_weight=0.0)

    def __init__(self, graphs: GraphCache):
        self.graphs = graphs

    def localize(self, instance: Instance, checkout: Path | None) -> Prediction:
        workspace = self.graphs.workspace(checkout)
        state = offline_state(workspace, instance.problem_statement, self._weights)
        return prediction_from_state(workspace, {**state, "source": BM25_POLICY})
