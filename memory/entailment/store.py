"""Persistence of the entailment graph: SQLite (working store), JSON and GraphML (exports)."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import asdict
from pathlib import Path

import networkx as nx

from memory.entailment.graph import EntailmentGraph, HeuristicNode

SCHEMA = """
CREATE TABLE IF NOT EXISTS nodes (id TEXT PRIMARY KEY, data TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS edges (source TEXT NOT NULL, target TEXT NOT NULL, data TEXT NOT NULL,
                                  PRIMARY KEY (source, target));
"""


class GraphStore:
    """An entailment graph in one SQLite file; ``save_node`` writes a node and its in-edges atomically."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self._connect() as db:
            db.executescript(SCHEMA)

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, timeout=30)

    def save_node(self, graph: EntailmentGraph, node_id: str) -> None:
        node = graph.node(node_id)
        with self._connect() as db:
            db.execute("INSERT OR REPLACE INTO nodes VALUES (?, ?)", (node_id, json.dumps(asdict(node))))
            db.execute("DELETE FROM edges WHERE target = ?", (node_id,))
            db.executemany("INSERT INTO edges VALUES (?, ?, ?)",
                           [(e["source"], node_id, json.dumps({"rationale": e["rationale"],
                                                                "derivation": e["derivation"]}))
                            for e in graph.edges() if e["target"] == node_id])

    def save(self, graph: EntailmentGraph) -> None:
        for node in graph.nodes():
            self.save_node(graph, node.id)

    def load(self) -> EntailmentGraph:
        with self._connect() as db:
            nodes = [json.loads(row[0]) for row in db.execute("SELECT data FROM nodes ORDER BY rowid")]
            edges = [{"source": s, "target": t, **json.loads(d)} for s, t, d in db.execute("SELECT * FROM edges")]
        return EntailmentGraph.from_dict({"nodes": nodes, "edges": edges})


def write_json(graph: EntailmentGraph, path: str | Path) -> Path:
    path = Path(path)
    path.write_text(json.dumps(graph.to_dict(), indent=1) + "\n")
    return path


def read_json(path: str | Path) -> EntailmentGraph:
    return EntailmentGraph.from_dict(json.loads(Path(path).read_text()))


def write_graphml(graph: EntailmentGraph, path: str | Path) -> Path:
    """GraphML with scalar attributes only: parent summaries as JSON text, missing scores as NaN."""
    flat = nx.DiGraph()
    for node in graph.nodes():
        data = asdict(node)
        data["parents"] = json.dumps(data["parents"])
        data["score"] = float("nan") if data["score"] is None else data["score"]
        data["failure"] = data["failure"] or ""
        flat.add_node(node.id, **data)
    for edge in graph.edges():
        flat.add_edge(edge["source"], edge["target"], rationale=edge["rationale"], derivation=edge["derivation"])
    path = Path(path)
    nx.write_graphml(flat, path)
    return path


def read_graphml(path: str | Path) -> EntailmentGraph:
    flat = nx.read_graphml(path)
    graph = EntailmentGraph()
    for node_id, data in flat.nodes(data=True):
        score = data.get("score")
        node = HeuristicNode(**{**data, "parents": json.loads(data["parents"]), "failure": data["failure"] or None,
                                "score": None if score is None or score != score else float(score)})
        graph.graph.add_node(node_id, **asdict(node))
    for source, target, data in flat.edges(data=True):
        graph.graph.add_edge(source, target, **data)
    return graph
