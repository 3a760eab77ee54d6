"""The Repository Planning Graph store: graph model, JSON/SQLite persistence and BM25 index."""

from memory.rpg.graph import CODE_KINDS, DEPENDENCY_KINDS, HIERARCHY_KINDS, ROOT_ID, RPG, EdgeKind, Node, NodeKind

__all__ = ["RPG", "Node", "NodeKind", "EdgeKind", "ROOT_ID", "CODE_KINDS", "HIERARCHY_KINDS", "DEPENDENCY_KINDS"]
