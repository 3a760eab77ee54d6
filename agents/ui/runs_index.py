"""The runs list: one row per run (what `agent runs list` shows, plus policy and times), cached by the files'
sizes and modification times so that a refresh reads only the runs that changed, and the whole list as a snapshot
(its JSON and a version naming its content) that the page, the API and every live stream share."""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sandboxes.errors import UserError

from agents.runtime.run import CONFIG_FILE, EVENTS_FILE, RUN_FILES, STATUS_FILE, Run, runs_root
from agents.runtime.summary import summarize

WATCHED = (CONFIG_FILE, STATUS_FILE, EVENTS_FILE, "report.json")
ROW_KEYS = ("id", "agent", "status", "reason", "model", "steps", "calls", "prompt_tokens", "completion_tokens",
            "cost_usd", "cost_known", "best")
HEADLINES = (("correctness", "correct {}"), ("median_speedup_over_eager", "median ×{} over eager"),
             ("best_train_gap_percent", "best gap {} %"), ("geomean_speedup", "geomean ×{}"),
             ("bon_splittester", "SplitTester pick correct {}"), ("answer", "answer {}"))
"""Report numbers that stand for a run's best result when it reports no ``best`` (the first ones present)."""


def run_row(run: Run) -> dict[str, Any]:
    """One run's row: its summary's list columns, the policy its report names, creation and update times."""
    info = summarize(run)
    report = run.read_report()
    summary = report.summary if report else {}
    status = run.status_record()
    best = info.get("best") if info.get("best") is not None else headline(summary)
    return {**{key: info.get(key) for key in ROW_KEYS}, "best": best,
            "policy": summary.get("policy") or summary.get("method"),
            "created": run.meta.get("created"), "updated": status.get("updated"), "parent": run.meta.get("bench"),
            "waiting_for": info.get("waiting_for")}


def headline(summary: dict[str, Any]) -> str | None:
    """The report's headline numbers in words, e.g. ``correct 1 · median ×1.4 over eager`` (None without any)."""
    parts = [text.format(summary[key]) for key, text in HEADLINES if isinstance(summary.get(key), (int, float))]
    return " · ".join(parts[:2]) or None


def _fingerprint(run_dir: Path) -> tuple:
    stamps = []
    for name in WATCHED:
        try:
            stat = os.stat(run_dir / name)
            stamps.append((stat.st_mtime_ns, stat.st_size))
        except OSError:
            stamps.append(None)
    return tuple(stamps)


def _run_dirs(root: Path) -> list[os.DirEntry]:
    """The folders under ``root`` holding any run file (what ``list_run_ids`` counts as runs)."""
    try:
        entries = list(os.scandir(root))
    except OSError:
        return []
    return [entry for entry in entries if entry.is_dir() and any(os.path.exists(os.path.join(entry.path, name))
                                                                  for name in RUN_FILES)]


@dataclass(frozen=True)
class Snapshot:
    """The runs list at one moment: its rows, their JSON and a version that names that content (the same rows
    give the same version, so a page can tell the stream which list it already shows)."""

    rows: list[dict[str, Any]]
    body: bytes
    version: str
    taken: float


def snapshot_of(rows: list[dict[str, Any]]) -> Snapshot:
    """The snapshot of ``rows`` taken now."""
    body = json.dumps(rows, default=str, separators=(",", ":")).encode()
    return Snapshot(rows, body, hashlib.sha256(body).hexdigest()[:16], time.monotonic())


class RunsIndex:
    """Rows of every run under ``root``, oldest first (by creation time, as ``list_run_ids`` orders them);
    thread-safe, recomputing only changed runs and never re-reading a config to sort."""

    def __init__(self, root: str | Path | None = None):
        self.root = runs_root(root)
        self._rows: dict[str, tuple[tuple, dict[str, Any]]] = {}
        self._lock = threading.Lock()
        self._scan = threading.Lock()
        self._snapshot: Snapshot | None = None

    def snapshot(self, max_age_s: float = 0.0) -> Snapshot:
        """The runs list, scanned again unless the last snapshot is at most ``max_age_s`` old (callers that come
        while a scan runs wait for it and share its result)."""
        with self._scan:
            last = self._snapshot
            if last is not None and time.monotonic() - last.taken <= max_age_s:
                return last
            self._snapshot = snapshot_of(self.rows())
            return self._snapshot

    def rows(self) -> list[dict[str, Any]]:
        """Every run's row, oldest first; a run whose watched files did not change is not read again."""
        stamps = {entry.name: _fingerprint(Path(entry.path)) for entry in _run_dirs(self.root)}
        rows = [self._row(run_id, key) for run_id, key in stamps.items()]
        with self._lock:
            for gone in set(self._rows) - set(stamps):
                del self._rows[gone]
        return sorted(rows, key=lambda row: (row.get("created") or 0, row["id"]))

    def _row(self, run_id: str, key: tuple) -> dict[str, Any]:
        with self._lock:
            cached = self._rows.get(run_id)
        if cached and cached[0] == key and cached[1]["status"] != "running":
            return cached[1]
        try:
            row = run_row(Run.open(run_id, self.root))
        except UserError as error:
            row = {"id": run_id, "status": "unreadable", "reason": str(error),
                   "created": os.stat(self.root / run_id).st_mtime}
        with self._lock:
            self._rows[run_id] = (key, row)
        return row
