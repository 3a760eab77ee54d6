"""`agent bench ui`'s measurements (`agents.ui.bench`) on a few runs: every reader sees every run."""

from __future__ import annotations

import json

import httpx

from agents.runtime.run import Run, list_run_ids
from agents.ui import bench


def test_the_runs_are_real_copies_that_both_readers_read_in_full(tmp_path, monkeypatch):
    monkeypatch.delenv("AGENT_RUNS_DIR", raising=False)
    root = tmp_path / "runs"
    root.mkdir()
    ids = bench.make_runs(root, 5)
    assert len(ids) == 5 == len(list_run_ids(root))
    copies = [Run.open(run_id, root) for run_id in ids if "-copy" in run_id]
    assert len(copies) == 3 and all(run.status == "finished" and run.read_report() for run in copies)
    assert all(json.loads((run.dir / "config.json").read_text())["id"] == run.id for run in copies)
    assert bench.time_runs_list_command(root, 5) > 0
    with bench.served(root) as url, httpx.Client() as client:
        seconds, rows = bench.time_api(client, url)
    assert rows == 5 and seconds > 0
