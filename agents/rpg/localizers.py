"""Localisers for the repository benchmark: ``rpg`` (the agent, or its offline policy) and ``bm25``.

They read the instance's repository at base_commit through git objects (no worktree) and share one
:class:`RepoGraphs`: one live graph per repository, built at the first instance and then moved from
commit to commit by the incremental update, with its search indexes updated alongside. The harness
runs a repository's instances along a chain of nearby commits (fewest Python files changed), so each move is
a small diff.
"""

from __future__ import annotations

import threading
from typing import Any

from benchmarks.repo.checkout import Snapshot
from benchmarks.repo.gcpause import paused
from benchmarks.repo.instances import Instance
from benchmarks.repo.localizer import Prediction
from sandboxes.telemetry import emit

from agents.rpg.build import EncodeConfig, build_rpg
from agents.rpg.evolve import evolve
from agents.rpg.lift_offline import OfflineLifter
from agents.rpg.localize_agent import AgentConfig, localize_with_model, offline_state
from agents.rpg.localize_offline import POLICY, OfflineRanker, RankConfig
from agents.rpg.source import read_commit
from agents.runtime.models.base import ChatModel, ChatResponse
from memory.rpg.graph import RPG, NodeKind
from tools.rpg.workspace import RPGWorkspace

BM25_POLICY = "baseline: BM25 over code chunks, no graph"
BM25_CONFIG = RankConfig(place_weight=0.0, title_weight=0.0, walk_weight=0.0, include_tests=True,
                         drop_environment=False)
"""The baseline: plain BM25 evidence over the whole issue, tests included; answers read at the same levels as ``rpg``'s."""


class RepoGraphs:
    """One live graph (and ranker) per repository, evolved to each requested commit.

    With ``reuse`` off, every new commit is built from scratch instead (for checking that evolving
    gives the same answers, and for timing the difference).
    """

    def __init__(self, config: EncodeConfig | None = None, reuse: bool = True):
        self.config = config or EncodeConfig()
        self.reuse = reuse
        self._live: dict[str, OfflineRanker] = {}
        self._locks: dict[str, threading.Lock] = {}
        self._guard = threading.Lock()

    @paused
    def ranker(self, snapshot: Snapshot) -> OfflineRanker:
        """The ranker over ``snapshot.repo`` at ``snapshot.commit`` (its workspace is ``.workspace``)."""
        with self._guard:
            lock = self._locks.setdefault(snapshot.repo, threading.Lock())
        with lock:
            current = self._live.get(snapshot.repo)
            if current is not None and current.workspace.rpg.commit == snapshot.commit:
                return current
            if current is not None and self.reuse:
                self._live[snapshot.repo] = self._evolve(current.workspace, snapshot)
            else:
                self._live[snapshot.repo] = self._build(snapshot)
            return self._live[snapshot.repo]

    def workspace(self, snapshot: Snapshot) -> RPGWorkspace:
        return self.ranker(snapshot).workspace

    def _build(self, snapshot: Snapshot) -> OfflineRanker:
        listing = read_commit(snapshot.clone, snapshot.commit)
        rpg, stats = build_rpg(listing, OfflineLifter(), self.config, name=snapshot.repo, commit=snapshot.commit)
        texts = {path: data.decode("utf-8", "replace") for path, data in listing.files.items()}
        emit("rpg.graph", repo=snapshot.repo, commit=snapshot.commit, mode="full build", seconds=stats.seconds)
        return OfflineRanker(RPGWorkspace(rpg, repo=snapshot.clone, texts=texts), stats.symbols)

    def _evolve(self, workspace: RPGWorkspace, snapshot: Snapshot) -> OfflineRanker:
        stats = evolve(workspace.rpg, str(snapshot.clone), snapshot.commit, OfflineLifter(), self.config)
        workspace.refresh(stats.changed)
        emit("rpg.graph", repo=snapshot.repo, commit=snapshot.commit, mode="evolved", seconds=stats.seconds,
             changed_files=len(stats.changed))
        return OfflineRanker(workspace, stats.symbols)


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
    """Ranked levels from a localisation state: its locations, and its file and module rankings when it
    has them (the offline ranking's; a model's submission has locations only)."""
    locations = state.get("locations", [])
    entities = [function_level(workspace.rpg, loc["entity"]) if loc["entity"] in workspace.rpg else loc["entity"]
                for loc in locations if loc.get("entity")]
    files = state.get("files") or [loc["file"] for loc in locations if loc.get("file")]
    return Prediction.from_entities(entities, files=files, modules=state.get("modules"), locations=locations,
                                    note=state.get("source", ""), **extra)


class RPGLocalizer:
    """The localisation agent with a model; its offline policy without."""

    needs_checkout = True

    def __init__(self, graphs: RepoGraphs, model: ChatModel | None, config: AgentConfig | None = None,
                 rank: RankConfig | None = None, name: str = "rpg"):
        self.graphs, self.model, self.config = graphs, model, config or AgentConfig()
        self.rank_config = rank or RankConfig()
        self.name = name
        self.policy = f"llm: {model.name}" if model else POLICY

    def localize(self, instance: Instance, checkout: Snapshot | None) -> Prediction:
        ranker = self.graphs.ranker(checkout)
        if self.model is None:
            return prediction_from_state(ranker.workspace, offline_state(ranker, instance.problem_statement,
                                                                         self.rank_config))
        tally = _Tally(self.model)
        state = localize_with_model(ranker, tally, instance.problem_statement, self.config, self.rank_config)
        return prediction_from_state(ranker.workspace, state, cost_usd=tally.cost_usd, tokens=tally.tokens)


class BM25Localizer:
    """The retrieval baseline: BM25 over code chunks alone (no pointers, no graph, tests included)."""

    needs_checkout = True
    name = "bm25"
    policy = BM25_POLICY

    def __init__(self, graphs: RepoGraphs):
        self.graphs = graphs

    def localize(self, instance: Instance, checkout: Snapshot | None) -> Prediction:
        ranker = self.graphs.ranker(checkout)
        state = offline_state(ranker, instance.problem_statement, BM25_CONFIG)
        return prediction_from_state(ranker.workspace, {**state, "source": BM25_POLICY})
