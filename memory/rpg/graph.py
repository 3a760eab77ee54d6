"""The Repository Planning Graph: a functional hierarchy over code units plus their dependencies.

Nodes are repository / area / category / subcategory (the functional hierarchy) and
file / class / function / method (code units). Every code unit maps back to a path and a line
range. Edges are ``contains`` (hierarchy and code nesting), ``imports``, ``invokes`` and
``inherits``. The graph is a networkx ``MultiDiGraph`` keyed by edge kind, so one pair of nodes
can carry several kinds of edge but never the same kind twice.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from enum import Enum
from typing import Any, Iterable, Iterator

import networkx as nx


class NodeKind(str, Enum):
    REPOSITORY = "repository"
    AREA = "area"
    CATEGORY = "category"
    SUBCATEGORY = "subcategory"
    FILE = "file"
    CLASS = "class"
    FUNCTION = "function"
    METHOD = "method"


class EdgeKind(str, Enum):
    CONTAINS = "contains"
    IMPORTS = "imports"
    INVOKES = "invokes"
    INHERITS = "inherits"


HIERARCHY_KINDS = (NodeKind.REPOSITORY, NodeKind.AREA, NodeKind.CATEGORY, NodeKind.SUBCATEGORY)
CODE_KINDS = (NodeKind.FILE, NodeKind.CLASS, NodeKind.FUNCTION, NodeKind.METHOD)
DEPENDENCY_KINDS = (EdgeKind.IMPORTS, EdgeKind.INVOKES, EdgeKind.INHERITS)
ROOT_ID = "repo:"


@dataclass
class Node:
    """One node. ``id`` of a code unit is ``path`` or ``path:Qual.name`` (LocAgent's entity format)."""

    id: str
    kind: NodeKind
    name: str
    path: str = ""
    start: int = 0
    end: int = 0
    features: list[str] = field(default_factory=list)
    summary: str = ""
    signature: str = ""
    docstring: str = ""
    ast_hash: str = ""
    extra: dict[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["kind"] = self.kind.value
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Node":
        return cls(**{**data, "kind": NodeKind(data["kind"])})


class RPG:
    """The graph plus the few queries every encoder, tool and localiser needs."""

    def __init__(self, name: str = "", commit: str = ""):
        self.graph = nx.MultiDiGraph()
        self.name = name
        self.commit = commit
        self.meta: dict[str, Any] = {}
        self.add(Node(ROOT_ID, NodeKind.REPOSITORY, name or "repository"))

    # -- nodes ---------------------------------------------------------------------------------
    def add(self, node: Node) -> Node:
        self.graph.add_node(node.id, node=node)
        return node

    def node(self, node_id: str) -> Node:
        return self.graph.nodes[node_id]["node"]

    def get(self, node_id: str) -> Node | None:
        data = self.graph.nodes.get(node_id)
        return data["node"] if data else None

    def __contains__(self, node_id: str) -> bool:
        return node_id in self.graph

    def nodes(self, *kinds: NodeKind) -> Iterator[Node]:
        for _, data in self.graph.nodes(data=True):
            if not kinds or data["node"].kind in kinds:
                yield data["node"]

    def remove(self, node_id: str) -> None:
        """Remove a node together with everything it contains."""
        for child in list(self.children(node_id)):
            self.remove(child)
        if node_id in self.graph:
            self.graph.remove_node(node_id)

    # -- edges ---------------------------------------------------------------------------------
    def link(self, source: str, target: str, kind: EdgeKind) -> None:
        if source != target or kind is not EdgeKind.CONTAINS:
            self.graph.add_edge(source, target, key=kind.value)

    def unlink(self, source: str, target: str, kind: EdgeKind) -> None:
        if self.graph.has_edge(source, target, key=kind.value):
            self.graph.remove_edge(source, target, key=kind.value)

    def edges(self, *kinds: EdgeKind) -> Iterator[tuple[str, str, EdgeKind]]:
        wanted = {k.value for k in kinds}
        for source, target, key in self.graph.edges(keys=True):
            if not wanted or key in wanted:
                yield source, target, EdgeKind(key)

    def out(self, node_id: str, *kinds: EdgeKind) -> list[str]:
        """Targets of the edges leaving ``node_id`` (of these kinds), in edge order (one per edge)."""
        return _ends(self.graph.succ.get(node_id, {}), kinds)

    def into(self, node_id: str, *kinds: EdgeKind) -> list[str]:
        """Sources of the edges entering ``node_id`` (of these kinds), in edge order (one per edge)."""
        return _ends(self.graph.pred.get(node_id, {}), kinds)

    def children(self, node_id: str) -> list[str]:
        return self.out(node_id, EdgeKind.CONTAINS) if node_id in self.graph else []

    def parent(self, node_id: str) -> str | None:
        parents = self.into(node_id, EdgeKind.CONTAINS)
        return parents[0] if parents else None

    def descendants(self, node_id: str) -> list[str]:
        found, stack = [], list(self.children(node_id))
        while stack:
            current = stack.pop()
            found.append(current)
            stack.extend(self.children(current))
        return found

    def drop_dependencies_from(self, node_ids: Iterable[str]) -> None:
        """Remove every imports/invokes/inherits edge leaving these nodes."""
        kinds = {k.value for k in DEPENDENCY_KINDS}
        for node_id in node_ids:
            if node_id in self.graph:
                doomed = [(s, t, k) for s, t, k in self.graph.out_edges(node_id, keys=True) if k in kinds]
                self.graph.remove_edges_from(doomed)

    def prune_empty_hierarchy(self) -> list[str]:
        """Remove areas, categories and subcategories that no longer contain anything."""
        removed: list[str] = []
        changed = True
        while changed:
            changed = False
            for node in list(self.nodes(NodeKind.AREA, NodeKind.CATEGORY, NodeKind.SUBCATEGORY)):
                if not self.children(node.id):
                    self.graph.remove_node(node.id)
                    removed.append(node.id)
                    changed = True
        return removed

    # -- comparison ------------------------------------------------------------------------------
    def signature(self, with_features: bool = True) -> tuple[frozenset, frozenset]:
        """Nodes (with every attribute) and edges as sets, for node-for-node comparison."""
        def node_key(node: Node) -> tuple:
            data = node.to_dict()
            if not with_features:
                data.pop("features"), data.pop("summary")
            return tuple(sorted((k, repr(v)) for k, v in data.items()))
        nodes = frozenset(node_key(n) for n in self.nodes())
        edges = frozenset((s, t, k.value) for s, t, k in self.edges())
        return nodes, edges

    def stats(self) -> dict[str, int]:
        counts: dict[str, int] = {}
        for node in self.nodes():
            counts[f"nodes.{node.kind.value}"] = counts.get(f"nodes.{node.kind.value}", 0) + 1
        for _, _, kind in self.edges():
            counts[f"edges.{kind.value}"] = counts.get(f"edges.{kind.value}", 0) + 1
        return dict(sorted(counts.items()))


def _ends(adjacency, kinds: tuple[EdgeKind, ...]) -> list[str]:
    """The far ends in one node's adjacency (neighbour → edge keys), read directly rather than through
    networkx's edge views (the resolver and the indexes ask for parents and children very often)."""
    wanted = {k.value for k in kinds}
    return [other for other, keys in adjacency.items() for key in keys if not wanted or key in wanted]
