"""SQLite cache of evaluation results keyed by a hash of problem, split, harness and code."""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
from pathlib import Path
from typing import Any

from benchmarks.ahd.problem import RUNNERS_DIR


def harness_version() -> str:
    """A hash of the sandbox-side sources, so that a change to them invalidates cached results."""
    digest = hashlib.sha256()
    for path in sorted(RUNNERS_DIR.glob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def code_hash(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()[:16]


class EvaluationCache:
    """``get``/``put`` JSON results by key; safe to share between evaluation threads."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        with self._connect() as db:
            db.execute("CREATE TABLE IF NOT EXISTS evaluations (key TEXT PRIMARY KEY, result TEXT NOT NULL)")

    def _connect(self) -> sqlite3.Connection:
        return sqlite3.connect(self.path, timeout=30)

    @staticmethod
    def key(problem: str, split: str, code: str) -> str:
        text = json.dumps([problem, split, harness_version(), code])
        return hashlib.sha256(text.encode()).hexdigest()

    def get(self, key: str) -> dict[str, Any] | None:
        with self._lock, self._connect() as db:
            row = db.execute("SELECT result FROM evaluations WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    def put(self, key: str, result: dict[str, Any]) -> None:
        with self._lock, self._connect() as db:
            db.execute("INSERT OR REPLACE INTO evaluations VALUES (?, ?)", (key, json.dumps(result)))
