"""Entailment graph on networkx: nodes are heuristics, edges lead from a parent set to a child.

A node holds the heuristic's code, the rationale for its derivation, a description, its score (or
failure) and a compact summary of its parents (description and score of each). Every edge of one
derivation carries the same ``derivation`` id and the rationale, so the parent set can be recovered.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from typing import Any, Iterable

import networkx as nx


@dataclass
class HeuristicNode:
    """One heuristic in the graph. ``score`` is a gap in percent (lower is better); None if it failed."""

    id: str
    code: str
    description: str
    rationale: str = ""
    score: float | None = None
    failure: str | None = None
    parents: list[dict[str, Any]] = field(default_factory=list)
    origin: str = "rollout"
    round: int = 0
    step: int = 0

    @property
    def fitness(self) -> float:
        return self.score if self.score is not None and math.isfinite(self.score) else math.inf


class EntailmentGraph:
    """A directed graph of heuristics; ``add`` records a derivation from a parent set."""

    def __init__(self) -> None:
        self.graph = nx.DiGraph()

    def __len__(self) -> int:
        return self.graph.number_of_nodes()

    def __contains__(self, node_id: str) -> bool:
        return node_id in self.graph

    def add(self, node: HeuristicNode, parent_ids: Iterable[str] = ()) -> HeuristicNode:
        """Insert (or replace) ``node`` with edges from ``parent_ids`` carrying its rationale."""
        parent_ids = [p for p in parent_ids if p in self.graph]
        node.parents = [self.parent_summary(p) for p in parent_ids]
        if node.id in self.graph:
            self.graph.remove_edges_from(list(self.graph.in_edges(node.id)))
        self.graph.add_node(node.id, **asdict(node))
        for parent in parent_ids:
            self.graph.add_edge(parent, node.id, rationale=node.rationale, derivation=node.id)
        return node

    def parent_summary(self, node_id: str) -> dict[str, Any]:
        data = self.graph.nodes[node_id]
        return {"id": node_id, "description": data["description"], "score": data["score"]}

    def node(self, node_id: str) -> HeuristicNode:
        return HeuristicNode(**self.graph.nodes[node_id])

    def nodes(self) -> list[HeuristicNode]:
        return [self.node(n) for n in self.graph.nodes]

    def parents(self, node_id: str) -> list[str]:
        return list(self.graph.predecessors(node_id))

    def edges(self) -> list[dict[str, Any]]:
        return [{"source": u, "target": v, **data} for u, v, data in self.graph.edges(data=True)]

    def leaves(self, within: Iterable[str] | None = None) -> list[HeuristicNode]:
        """Nodes without children (optionally only among the descendants of ``within`` and themselves)."""
        scope = set(self.graph.nodes) if within is None else self.reachable(within)
        return [self.node(n) for n in scope if not any(c in scope for c in self.graph.successors(n))]

    def reachable(self, roots: Iterable[str]) -> set[str]:
        found: set[str] = set()
        for root in roots:
            if root in self.graph:
                found |= {root} | nx.descendants(self.graph, root)
        return found

    def best(self) -> HeuristicNode | None:
        scored = [n for n in self.nodes() if n.score is not None]
        return min(scored, key=lambda n: n.fitness) if scored else None

    def to_dict(self) -> dict[str, Any]:
        return {"nodes": [asdict(n) for n in self.nodes()], "edges": self.edges()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "EntailmentGraph":
        graph = cls()
        for node in data["nodes"]:
            graph.graph.add_node(node["id"], **node)
        for edge in data["edges"]:
            attrs = {k: v for k, v in edge.items() if k not in ("source", "target")}
            graph.graph.add_edge(edge["source"], edge["target"], **attrs)
        return graph
