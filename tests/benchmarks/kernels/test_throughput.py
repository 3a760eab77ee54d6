"""The throughput benchmark's bookkeeping (its numbers come from `agent bench kernels --throughput`)."""

import os

from benchmarks.kernels.suite import pair_solutions
from benchmarks.kernels.tasks import load_tasks
from benchmarks.kernels.throughput import fresh_cache, measure_throughput
from sandboxes.targets.cache import default_cache_root
from sandboxes.targets.cpu import CpuTarget


def test_fresh_cache_is_visible_then_removed_and_env_restored(monkeypatch):
    before = str(default_cache_root())
    monkeypatch.setenv("AGENT_KERNEL_CACHE", before)
    with fresh_cache() as folder:
        assert os.environ["AGENT_KERNEL_CACHE"] == str(folder) and folder.is_dir()
    assert not folder.exists() and os.environ["AGENT_KERNEL_CACHE"] == before
    monkeypatch.delenv("AGENT_KERNEL_CACHE")
    with fresh_cache():
        pass
    assert "AGENT_KERNEL_CACHE" not in os.environ


def test_report_has_cold_warm_and_persistent_rows(tmp_path, sandbox, quick):
    (tmp_path / "L1__relu.py").write_text("import os\n")
    pairs = pair_solutions(load_tasks("builtin:L1:relu"), tmp_path).pairs
    report = measure_throughput(pairs, CpuTarget, sandbox, quick, jobs=1)
    assert [row["phase"] for row in report.rows] == ["cold cache", "warm cache", "warm cache, persistent runner"]
    assert report.summary["cold_solutions_per_minute"] > 0 and report.summary["warm_over_cold"] > 0
    assert report.summary["persistent_over_one_shot"] > 0 and report.summary["same_correct"]
