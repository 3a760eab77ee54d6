"""The runs list's index (`agents.ui.runs_index`): the order `agent runs list` uses, re-reading only changed runs."""

from __future__ import annotations

import json

import pytest

from agents.runtime.run import Run, list_run_ids
from agents.ui import runs_index
from agents.ui.runs_index import RunsIndex, headline


@pytest.fixture
def three_runs(tmp_path):
    runs = [Run.create(agent, {"n": i}, tmp_path) for i, agent in enumerate(("alpha", "beta", "gamma"))]
    for run in runs:
        run.set_status("finished")
    return tmp_path, runs


def test_rows_come_oldest_first_like_agent_runs_list(three_runs):
    root, runs = three_runs
    (root / "not-a-run").mkdir()
    assert [row["id"] for row in RunsIndex(root).rows()] == list_run_ids(root)
    assert {row["agent"] for row in RunsIndex(root).rows()} == {"alpha", "beta", "gamma"}


def test_only_a_changed_run_is_read_again(three_runs, monkeypatch):
    root, runs = three_runs
    index = RunsIndex(root)
    index.rows()
    read = []
    real = runs_index.run_row
    monkeypatch.setattr(runs_index, "run_row", lambda run: read.append(run.id) or real(run))
    index.rows()
    assert read == []
    runs[1].set_status("failed", "boom")
    rows = {row["id"]: row for row in index.rows()}
    assert read == [runs[1].id] and rows[runs[1].id]["status"] == "failed"


def test_a_damaged_run_is_a_row_saying_why_and_a_removed_one_goes(three_runs):
    root, runs = three_runs
    index = RunsIndex(root)
    index.rows()
    (runs[0].dir / "config.json").write_text("{not json")
    rows = {row["id"]: row for row in index.rows()}
    assert rows[runs[0].id]["status"] == "unreadable" and "config.json" in rows[runs[0].id]["reason"]
    for name in ("config.json", "status.json", "events.jsonl"):
        (runs[2].dir / name).unlink(missing_ok=True)
    assert runs[2].id not in {row["id"] for row in index.rows()}


def test_a_snapshot_is_shared_while_fresh_and_its_version_names_its_content(three_runs, monkeypatch):
    root, runs = three_runs
    index = RunsIndex(root)
    first = index.snapshot()
    assert json.loads(first.body) == first.rows == index.rows()
    scans = []
    real = RunsIndex.rows
    monkeypatch.setattr(RunsIndex, "rows", lambda self: scans.append(1) or real(self))
    assert index.snapshot(max_age_s=60) is first and scans == []
    assert index.snapshot().version == first.version and scans == [1]  # scanned again, nothing changed
    runs[0].set_status("failed", "boom")
    changed = index.snapshot(max_age_s=0)
    assert changed.version != first.version and changed.rows[0]["status"] == "failed"


def test_a_report_without_best_gives_its_headline_numbers():
    assert headline({"correctness": 1.0, "median_speedup_over_eager": 1.4, "geomean_speedup": 2}) == \
        "correct 1.0 · median ×1.4 over eager"
    assert headline({"policy": "x"}) is None
