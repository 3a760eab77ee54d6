"""Verdicts kept on disk: the run's attempt ledger, and the cross-run cache of simulated verdicts.

``AttemptLedger`` (one per run) writes each attempt's verdict ahead, keyed by (task, attempt,
solution digest), before the attempt is announced; an attempt that runs again after a kill finds
its verdict there instead of verifying again. It also records which events were emitted once.

``VerdictCache`` (shared by runs) answers a candidate that was verified before: same task source,
same solution source, same target configuration, same verifier settings and same verifier and
simulator code. It is used on simulated targets only, where timing is deterministic (cycles depend
on shapes, not on the clock), so the stored verdict is the one a fresh verification gives.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import sys
import threading
from pathlib import Path
from typing import Any

from sandboxes.errors import UserError

from agents.evokernel.records import Verdict

SCHEMA = "CREATE TABLE IF NOT EXISTS items (key TEXT PRIMARY KEY, value TEXT NOT NULL)"


def digest(*parts: str) -> str:
    """SHA-256 of the parts, NUL-separated."""
    return hashlib.sha256("\0".join(parts).encode()).hexdigest()


class JsonTable:
    """A SQLite file of key -> JSON value; safe from many threads and processes."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._conn = sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False)
        try:
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=NORMAL")  # durable when the process is killed; fsync at checkpoints
            self._conn.execute(SCHEMA)
        except sqlite3.DatabaseError as error:
            self._conn.close()
            raise DamagedTable(f"{self.path} is damaged ({error})") from None
        self._lock = threading.Lock()

    def get(self, key: str) -> Any:
        with self._lock:
            row = self._conn.execute("SELECT value FROM items WHERE key = ?", (key,)).fetchone()
        return None if row is None else json.loads(row[0])

    def put(self, key: str, value: Any) -> None:
        with self._lock:
            self._conn.execute("INSERT OR REPLACE INTO items (key, value) VALUES (?, ?)", (key, json.dumps(value)))

    def claim(self, key: str) -> bool:
        """Record ``key``; False when it was recorded before."""
        with self._lock:
            cursor = self._conn.execute("INSERT OR IGNORE INTO items (key, value) VALUES (?, 'true')", (key,))
        return cursor.rowcount == 1

    def __len__(self) -> int:
        with self._lock:
            return int(self._conn.execute("SELECT COUNT(*) FROM items").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._conn.close()


class DamagedTable(UserError):
    """A table file that is not a readable SQLite database."""


class AttemptLedger:
    """Write-ahead verdicts of one run's attempts, and once-only event claims."""

    def __init__(self, path: str | Path):
        try:
            self.table = JsonTable(path)
        except DamagedTable as error:
            raise UserError(f"the run's attempt ledger {error}: which attempts were verified cannot be read, so the "
                            "run cannot go on; start a new run") from None

    def verdict(self, task: str, attempt: int, code: str) -> Verdict | None:
        """The verdict saved for this attempt of ``task``, if its candidate was this code."""
        return self.table.get(f"verdict/{task}/{attempt}/{digest(code)}")

    def save(self, task: str, attempt: int, code: str, verdict: Verdict) -> None:
        self.table.put(f"verdict/{task}/{attempt}/{digest(code)}", verdict)

    def claim(self, key: str) -> bool:
        """True the first time ``key`` is claimed in this run (an event emitted once, even on resume)."""
        return self.table.claim(f"claim/{key}")

    def close(self) -> None:
        self.table.close()


def set_aside(path: Path) -> None:
    """Move a SQLite file and its write-ahead log and index files to ``<name>.damaged``."""
    for suffix in ("", "-wal", "-shm"):
        part = Path(f"{path}{suffix}")
        if part.exists():
            os.replace(part, f"{path}.damaged{suffix}")


class VerdictCache:
    """Verdicts of earlier identical verifications, keyed by everything that decides a verdict."""

    def __init__(self, path: str | Path, fingerprint: str):
        try:
            self.table = JsonTable(path)
        except DamagedTable as error:  # only a cache: set it aside and start an empty one
            set_aside(Path(path))
            print(f"warning: the verdict cache {error}; it was moved to {Path(path).name}.damaged and a new one "
                  "started", file=sys.stderr)
            self.table = JsonTable(path)
        self.fingerprint = fingerprint
        """Target configuration, verifier settings and code version, as one digest."""
        self.hits = 0

    def key(self, task_source: str, solution: str) -> str:
        return digest(self.fingerprint, task_source, solution)

    def get(self, task_source: str, solution: str) -> Verdict | None:
        found = self.table.get(self.key(task_source, solution))
        if found is not None:
            self.hits += 1
        return found

    def put(self, task_source: str, solution: str, verdict: Verdict) -> None:
        self.table.put(self.key(task_source, solution), verdict)

    def close(self) -> None:
        self.table.close()


def set_aside(path: Path) -> None:
    """Move a SQLite file and its write-ahead log and index files to ``<name>.damaged``."""
    for suffix in ("", "-wal", "-shm"):
        part = Path(f"{path}{suffix}")
        if part.exists():
            os.replace(part, f"{path}.damaged{suffix}")
