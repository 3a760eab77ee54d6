"""The offline localiser: BM25 over code chunks plus fuzzy features, propagated along the graph.

It is the localisation agent's no-model policy and a baseline of its own. Seeds are BM25 and
feature scores for the issue text, plus a bonus for identifiers the issue names verbatim; scores
then flow a few steps along invokes / inherits / contains edges (both ways, damped), so that code
next to strong matches rises. Files rank by their best unit plus their own score.
"""

from __future__ import annotations

import re
from collections import defaultdict

from sandboxes.settings import Config

from memory.rpg.graph import EdgeKind, NodeKind
from tools.rpg.workspace import UNIT_KINDS, RPGWorkspace

POLICY = "offline policy: BM25 + feature search with graph propagation"
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]{2,}")
PROPAGATION_EDGES = (EdgeKind.INVOKES, EdgeKind.INHERITS, EdgeKind.CONTAINS)


class PropagationConfig(Config):
    """Weights of the offline localiser."""

    steps: int = 2
    """Propagation steps along the graph."""
    damping: float = 0.3
    """Share of a neighbour's score that flows per step."""
    name_bonus: float = 1.0
    """Added to units (and their files) whose name the issue mentions verbatim."""
    feature_weight: float = 0.5
    """Weight of fuzzy feature similarity next to normalised BM25."""
    top_k: int = 10
    """How many entities and files to return."""


def seed_scores(workspace: RPGWorkspace, issue: str, config: PropagationConfig) -> dict[str, float]:
    """Normalised BM25 + weighted feature similarity + verbatim-name bonus."""
    scores: dict[str, float] = defaultdict(float)
    bm25 = workspace.bm25.scores(issue)
    top = max(bm25.values(), default=1.0) or 1.0
    for node_id, value in bm25.items():
        scores[node_id] += value / top
    for node_id, value in workspace.fuzzy.scores(issue[:2000]).items():
        if workspace.rpg.node(node_id).kind in UNIT_KINDS:
            scores[node_id] += config.feature_weight * value
    mentioned = set(_IDENTIFIER.findall(issue))
    for node in workspace.rpg.nodes(*UNIT_KINDS, NodeKind.FILE):
        stem = node.name[:-3] if node.kind is NodeKind.FILE else node.name
        if stem in mentioned and not (stem.startswith("__") and stem.endswith("__")):
            scores[node.id] += config.name_bonus
    return dict(scores)


def propagate(workspace: RPGWorkspace, seeds: dict[str, float], config: PropagationConfig) -> dict[str, float]:
    """A few damped steps of score diffusion along dependency and containment edges."""
    rpg = workspace.rpg
    scores = dict(seeds)
    for _ in range(config.steps):
        flow: dict[str, float] = defaultdict(float)
        for node_id, value in scores.items():
            if node_id not in rpg or value <= 0:
                continue
            neighbours = rpg.out(node_id, *PROPAGATION_EDGES) + rpg.into(node_id, *PROPAGATION_EDGES)
            for other in neighbours:
                flow[other] += config.damping * value / max(len(neighbours), 1) ** 0.5
        scores = {n: seeds.get(n, 0.0) + flow.get(n, 0.0) for n in set(seeds) | set(flow)}
    return scores


def rank(workspace: RPGWorkspace, issue: str, config: PropagationConfig | None = None) -> tuple[list[str], list[str]]:
    """Ranked unit ids and ranked file paths for an issue."""
    config = config or PropagationConfig()
    scores = propagate(workspace, seed_scores(workspace, issue, config), config)
    rpg = workspace.rpg
    units = [n for n in scores if n in rpg and rpg.node(n).kind in UNIT_KINDS]
    units.sort(key=lambda n: (-scores[n], n))
    file_scores: dict[str, float] = defaultdict(float)
    for unit_id in units:
        path = rpg.node(unit_id).path
        file_scores[path] = max(file_scores[path], scores[unit_id])
    for node_id, value in scores.items():
        if node_id in rpg and rpg.node(node_id).kind is NodeKind.FILE:
            file_scores[node_id] += 0.5 * value
    files = sorted(file_scores, key=lambda p: (-file_scores[p], p))
    return units[:config.top_k * 3], files[:config.top_k]
