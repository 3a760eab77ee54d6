"""Persist an RPG as JSON or SQLite; both round-trip node for node and edge for edge."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from sandboxes.errors import UserError

from memory.rpg.graph import RPG, EdgeKind, Node

FORMAT_VERSION = 1


def to_dict(rpg: RPG) -> dict[str, Any]:
    return {"format": FORMAT_VERSION, "name": rpg.name, "commit": rpg.commit, "meta": rpg.meta,
            "nodes": [n.to_dict() for n in rpg.nodes()],
            "edges": [[s, t, k.value] for s, t, k in rpg.edges()]}


def from_dict(data: dict[str, Any]) -> RPG:
    if data.get("format") != FORMAT_VERSION:
        raise UserError(f"unsupported RPG format {data.get('format')!r} (expected {FORMAT_VERSION})")
    rpg = RPG(data.get("name", ""), data.get("commit", ""))
    rpg.meta.update(data.get("meta", {}))
    for item in data["nodes"]:
        rpg.add(Node.from_dict(item))
    for source, target, kind in data["edges"]:
        rpg.link(source, target, EdgeKind(kind))
    return rpg


def save_json(rpg: RPG, path: str | Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(to_dict(rpg)))
    return path


def load_json(path: str | Path) -> RPG:
    try:
        return from_dict(json.loads(Path(path).read_text()))
    except (OSError, json.JSONDecodeError, KeyError) as error:
        raise UserError(f"cannot read RPG from {path}: {error}") from error


_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE nodes (id TEXT PRIMARY KEY, kind TEXT NOT NULL, path TEXT, start INTEGER, "end" INTEGER,
                    data TEXT NOT NULL);
CREATE TABLE edges (source TEXT NOT NULL, target TEXT NOT NULL, kind TEXT NOT NULL,
                    PRIMARY KEY (source, target, kind));
CREATE INDEX nodes_path ON nodes(path);
CREATE INDEX edges_target ON edges(target, kind);
"""


def save_sqlite(rpg: RPG, path: str | Path) -> Path:
    """Write the graph to a fresh SQLite file (queryable by path, kind and edge)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.unlink(missing_ok=True)
    with sqlite3.connect(path) as db:
        db.executescript(_SCHEMA)
        head = {"format": FORMAT_VERSION, "name": rpg.name, "commit": rpg.commit, "meta": rpg.meta}
        db.executemany("INSERT INTO meta VALUES (?, ?)", [(k, json.dumps(v)) for k, v in head.items()])
        db.executemany("INSERT INTO nodes VALUES (?, ?, ?, ?, ?, ?)",
                       [(n.id, n.kind.value, n.path, n.start, n.end, json.dumps(n.to_dict()))
                        for n in rpg.nodes()])
        db.executemany("INSERT INTO edges VALUES (?, ?, ?)", [(s, t, k.value) for s, t, k in rpg.edges()])
    return path


def load_sqlite(path: str | Path) -> RPG:
    if not Path(path).is_file():
        raise UserError(f"no RPG database at {path}")
    with sqlite3.connect(path) as db:
        head = {k: json.loads(v) for k, v in db.execute("SELECT key, value FROM meta")}
        nodes = [json.loads(row[0]) for row in db.execute("SELECT data FROM nodes ORDER BY rowid")]
        edges = [list(row) for row in db.execute("SELECT source, target, kind FROM edges ORDER BY rowid")]
    return from_dict({**head, "nodes": nodes, "edges": edges})


def save(rpg: RPG, path: str | Path) -> Path:
    """Save by suffix: ``.json`` as JSON, anything else as SQLite."""
    return save_json(rpg, path) if str(path).endswith(".json") else save_sqlite(rpg, path)


def load(path: str | Path) -> RPG:
    return load_json(path) if str(path).endswith(".json") else load_sqlite(path)
