"""Q-values keyed by (stage, state signature, memory id), PopArt statistics and the apply-once ledger.

Every write here runs inside a caller's ``MemoryStore.transaction()`` so that one attempt's
updates land together or not at all, and concurrent workers serialise on SQLite's write lock.
"""

from __future__ import annotations

import sqlite3
import time
from typing import Iterable, Sequence

from memory.qmemory.popart import PopArt
from memory.qmemory.store import MemoryStore


def q_values(store: MemoryStore, stage: str, signature: str, ids: Sequence[int], q_init: float) -> dict[int, float]:
    """Q for each memory id under (stage, signature); keys never updated read ``q_init``."""
    values = {int(i): q_init for i in ids}
    if not values:
        return values
    marks = ",".join("?" * len(values))
    rows = store.query("SELECT memory_id, q FROM q_values WHERE stage = ? AND signature = ?"
                       f" AND memory_id IN ({marks})", [stage, signature, *values])
    values.update({int(memory_id): float(q) for memory_id, q in rows})
    return values


def visits(store: MemoryStore, stage: str, signature: str, memory_id: int) -> int:
    """How many Monte-Carlo updates the key has received."""
    rows = store.query("SELECT visits FROM q_values WHERE stage = ? AND signature = ? AND memory_id = ?",
                       (stage, signature, memory_id))
    return int(rows[0][0]) if rows else 0


def update_q(conn: sqlite3.Connection, stage: str, signature: str, ids: Iterable[int], reward: float,
             alpha: float, q_init: float) -> None:
    """Monte-Carlo update Q <- Q + alpha (r - Q) for every distinct id, atomically in SQL."""
    for memory_id in dict.fromkeys(int(i) for i in ids):
        conn.execute(
            "INSERT INTO q_values (stage, signature, memory_id, q, visits) VALUES (?1, ?2, ?3, ?4 + ?5 * (?6 - ?4), 1)"
            " ON CONFLICT(stage, signature, memory_id) DO UPDATE SET q = q + ?5 * (?6 - q), visits = visits + 1",
            (stage, signature, memory_id, q_init, alpha, reward))


def inherit_q(conn: sqlite3.Connection, stage: str, parent_signature: str, parent_id: int, signature: str,
              child_id: int, q_init: float) -> bool:
    """Seed the child's key with the parent's current Q (``q_init`` when it has none), with no visits.

    A key the child already has (a duplicate of a kernel learned before) keeps its value; False then.
    """
    row = conn.execute("SELECT q FROM q_values WHERE stage = ? AND signature = ? AND memory_id = ?",
                       (stage, parent_signature, int(parent_id))).fetchone()
    value = float(row[0]) if row else q_init
    cursor = conn.execute("INSERT OR IGNORE INTO q_values (stage, signature, memory_id, q, visits)"
                          " VALUES (?, ?, ?, ?, 0)", (stage, signature, int(child_id), value))
    return cursor.rowcount == 1


def normalise_reward(conn: sqlite3.Connection, name: str, reward: float, beta: float, min_std: float) -> float:
    """PopArt-normalise ``reward`` with the persisted statistics called ``name`` and save them."""
    row = conn.execute("SELECT mean, second, count FROM popart WHERE name = ?", (name,)).fetchone()
    stats = PopArt(beta, min_std, *row) if row else PopArt(beta, min_std)
    value = stats.normalise(reward)
    conn.execute("INSERT INTO popart (name, mean, second, count) VALUES (?1, ?2, ?3, ?4) ON CONFLICT(name)"
                 " DO UPDATE SET mean = ?2, second = ?3, count = ?4", (name, stats.mean, stats.second, stats.count))
    return value


def popart_stats(store: MemoryStore, name: str, beta: float = 0.1, min_std: float = 1e-2) -> PopArt:
    """The persisted statistics called ``name`` (fresh ones when none are stored)."""
    rows = store.query("SELECT mean, second, count FROM popart WHERE name = ?", (name,))
    return PopArt(beta, min_std, *rows[0]) if rows else PopArt(beta, min_std)


def claim(conn: sqlite3.Connection, key: str) -> bool:
    """Record ``key`` as applied; False when it already was (a resumed step must not learn twice)."""
    cursor = conn.execute("INSERT OR IGNORE INTO applied (key, ts) VALUES (?, ?)", (key, time.time()))
    return cursor.rowcount == 1
