"""SQLite persistence of the memory: entries with their raw vectors, Q-values, PopArt statistics.

Safe for many writers (threads, processes, runs) on one file: WAL journal, a busy timeout, one
connection per thread, and short ``BEGIN IMMEDIATE`` transactions.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Iterator, Sequence

import numpy as np

from memory.qmemory.entries import EntryKind, MemoryEntry
from sandboxes.errors import UserError

SCHEMA = """
CREATE TABLE IF NOT EXISTS entries (
    id INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL, text TEXT NOT NULL, key_text TEXT NOT NULL,
    task TEXT, target TEXT, op_family TEXT, stage TEXT, bottleneck TEXT, parent_id INTEGER,
    source_key TEXT, digest TEXT NOT NULL UNIQUE, meta TEXT, vector BLOB, created REAL);
CREATE UNIQUE INDEX IF NOT EXISTS entries_source ON entries(source_key) WHERE source_key != '';
CREATE INDEX IF NOT EXISTS entries_parent ON entries(parent_id);
CREATE INDEX IF NOT EXISTS entries_kind_bottleneck ON entries(kind, bottleneck);
CREATE TABLE IF NOT EXISTS q_values (
    stage TEXT NOT NULL, signature TEXT NOT NULL, memory_id INTEGER NOT NULL, q REAL NOT NULL,
    visits INTEGER NOT NULL, PRIMARY KEY (stage, signature, memory_id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS popart (name TEXT PRIMARY KEY, mean REAL, second REAL, count INTEGER);
CREATE TABLE IF NOT EXISTS applied (key TEXT PRIMARY KEY, ts REAL);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT);
"""

KIND_CODES = {kind: code for code, kind in enumerate(EntryKind)}
ENTRY_COLUMNS = ("id", "kind", "text", "key_text", "task", "target", "op_family", "stage", "bottleneck",
                 "parent_id", "source_key", "meta")


class MemoryStore:
    """The SQLite file behind one memory; every method is safe to call from any thread."""

    def __init__(self, path: str | Path, busy_timeout_ms: int = 30000):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._busy_timeout_ms = busy_timeout_ms
        self._local = threading.local()
        try:
            self._connection().executescript(SCHEMA)
        except sqlite3.DatabaseError as error:
            raise UserError(f"memory file {self.path} is not a usable SQLite memory ({error}); "
                            "pass another --memory, or move this one aside to start a new memory") from None

    def _connection(self) -> sqlite3.Connection:
        conn = getattr(self._local, "conn", None)
        if conn is None:
            conn = sqlite3.connect(self.path, timeout=self._busy_timeout_ms / 1000, isolation_level=None,
                                   check_same_thread=False)
            conn.execute(f"PRAGMA busy_timeout={int(self._busy_timeout_ms)}")
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=NORMAL")
            self._local.conn = conn
        return conn

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """A short write transaction that takes the write lock up front (no upgrade deadlocks)."""
        conn = self._connection()
        conn.execute("BEGIN IMMEDIATE")
        try:
            yield conn
        except BaseException:
            conn.execute("ROLLBACK")
            raise
        conn.execute("COMMIT")

    def query(self, sql: str, params: Sequence[Any] = ()) -> list[tuple]:
        """A read outside any explicit transaction (WAL readers never block writers)."""
        return self._connection().execute(sql, params).fetchall()

    def add_entries(self, entries: list[MemoryEntry], vectors: np.ndarray) -> list[int]:
        """Insert entries; an entry already present (same content or source key) keeps its id."""
        ids: list[int] = []
        with self.transaction() as conn:
            for entry, vector in zip(entries, vectors):
                ids.append(self._insert(conn, entry, vector))
        for entry, entry_id in zip(entries, ids):
            entry.id = entry_id
        return ids

    def _insert(self, conn: sqlite3.Connection, entry: MemoryEntry, vector: np.ndarray) -> int:
        existing = conn.execute("SELECT id FROM entries WHERE digest = ? OR (source_key != '' AND source_key = ?)",
                                (entry.digest, entry.source_key)).fetchone()
        if existing:
            return int(existing[0])
        cursor = conn.execute(
            "INSERT INTO entries (kind, text, key_text, task, target, op_family, stage, bottleneck, parent_id,"
            " source_key, digest, meta, vector, created) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (entry.kind.value, entry.text, entry.key_text, entry.task, entry.target, entry.op_family, entry.stage,
             entry.bottleneck, entry.parent_id, entry.source_key, entry.digest, json.dumps(entry.meta),
             np.asarray(vector, dtype=np.float32).tobytes(), time.time()))
        return int(cursor.lastrowid)

    def vectors_since(self, last_id: int) -> tuple[np.ndarray, np.ndarray, list[bytes]]:
        """(ids, kind codes, raw vector blobs) of entries with id > ``last_id``, in id order."""
        rows = self.query("SELECT id, kind, vector FROM entries WHERE id > ? ORDER BY id", (last_id,))
        ids = np.array([r[0] for r in rows], dtype=np.int64)
        kinds = np.array([KIND_CODES[EntryKind(r[1])] for r in rows], dtype=np.int8)
        return ids, kinds, [r[2] for r in rows]

    def get(self, ids: Sequence[int]) -> list[MemoryEntry]:
        """Entries by id, in the order asked (missing ids are skipped)."""
        if not ids:
            return []
        marks = ",".join("?" * len(ids))
        rows = self.query(f"SELECT {','.join(ENTRY_COLUMNS)} FROM entries WHERE id IN ({marks})", list(ids))
        by_id = {row[0]: _entry(row) for row in rows}
        return [by_id[i] for i in ids if i in by_id]

    def find(self, where: str = "1", params: Sequence[Any] = (), limit: int = 1_000_000) -> list[MemoryEntry]:
        """Entries matching a SQL condition on the entry columns, newest first."""
        rows = self.query(f"SELECT {','.join(ENTRY_COLUMNS)} FROM entries WHERE {where} ORDER BY id DESC LIMIT ?",
                          [*params, limit])
        return [_entry(row) for row in rows]

    def set_vectors(self, ids: Sequence[int], vectors: np.ndarray) -> None:
        """Replace stored raw vectors (after switching embedders)."""
        with self.transaction() as conn:
            conn.executemany("UPDATE entries SET vector = ? WHERE id = ?",
                             [(np.asarray(v, dtype=np.float32).tobytes(), int(i)) for i, v in zip(ids, vectors)])

    def get_meta(self, key: str) -> str | None:
        rows = self.query("SELECT value FROM meta WHERE key = ?", (key,))
        return rows[0][0] if rows else None

    def set_meta(self, key: str, value: str) -> None:
        with self.transaction() as conn:
            conn.execute("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = ?",
                         (key, value, value))

    def count(self, kind: EntryKind | None = None) -> int:
        if kind is None:
            return int(self.query("SELECT COUNT(*) FROM entries")[0][0])
        return int(self.query("SELECT COUNT(*) FROM entries WHERE kind = ?", (kind.value,))[0][0])

    def close(self) -> None:
        """Close this thread's connection (others close when their threads end)."""
        conn = getattr(self._local, "conn", None)
        if conn is not None:
            conn.close()
            self._local.conn = None


def _entry(row: tuple) -> MemoryEntry:
    data = dict(zip(ENTRY_COLUMNS, row))
    data["meta"] = json.loads(data["meta"] or "{}")
    return MemoryEntry.from_dict(data)
