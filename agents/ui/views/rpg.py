"""The RPG panel: the repository planning graph as a browsable tree (functional hierarchy down to files, classes
and functions, with features, summaries and line spans), each node's dependencies both ways, and the
localisation's ranked results."""

from __future__ import annotations

from typing import Any

from memory.rpg import store
from memory.rpg.graph import DEPENDENCY_KINDS, ROOT_ID, RPG

from agents.runtime.run import Run

GRAPH_FILE = "artifacts/rpg.sqlite"
NODE_FIELDS = ("id", "kind", "name", "path", "start", "end", "features", "summary", "signature")


def view(run: Run) -> dict[str, Any]:
    path = run.dir / GRAPH_FILE
    report = run.read_report()
    rows = report.rows if report else []
    located = [row for row in rows if row.get("kind") == "location"]
    if not path.is_file():
        return {"tree": None, "nodes": {}, "stats": {}, "locations": located, "issue": run.config.get("issue")}
    rpg = store.load(path)
    return {"tree": tree(rpg, ROOT_ID), "nodes": dependencies(rpg), "stats": rpg.stats(), "locations": located,
            "issue": run.config.get("issue"), "commit": rpg.commit, "name": rpg.name}


def tree(rpg: RPG, node_id: str) -> dict[str, Any]:
    """``node_id`` and everything it contains, as nested dicts (children sorted: hierarchy, then by name)."""
    node = rpg.node(node_id).to_dict()
    children = sorted(rpg.children(node_id), key=lambda child: (rpg.node(child).path or "", rpg.node(child).name))
    return {**{key: node[key] for key in NODE_FIELDS}, "children": [tree(rpg, child) for child in children]}


def dependencies(rpg: RPG) -> dict[str, dict[str, dict[str, list[str]]]]:
    """Per node with any dependency edge: its imports/invokes/inherits out (``uses``) and in (``used_by``)."""
    found: dict[str, dict[str, dict[str, list[str]]]] = {}
    for source, target, kind in rpg.edges(*DEPENDENCY_KINDS):
        found.setdefault(source, {"uses": {}, "used_by": {}})["uses"].setdefault(kind.value, []).append(target)
        found.setdefault(target, {"uses": {}, "used_by": {}})["used_by"].setdefault(kind.value, []).append(source)
    return found
