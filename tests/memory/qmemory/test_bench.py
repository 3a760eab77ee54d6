import os

import pytest

from memory.qmemory.bench import busy_process, run_retrieval_benchmark, synthetic_entries


def test_synthetic_entries_are_distinct_and_cover_all_kinds():
    entries = synthetic_entries(40, seed=1)
    assert len({e.digest for e in entries}) == 40
    assert len({e.kind for e in entries}) == 4


def test_small_benchmark_times_every_index_in_one_run(tmp_path):
    report = run_retrieval_benchmark(entries=2000, queries=10, workdir=tmp_path)
    summary = report.summary
    assert summary["entries"] == 2000 and summary["same_candidates"] == "10/10"
    assert [(row["condition"], row["index"]) for row in report.rows] == [
        ("no added load", "postings index"), ("no added load", "brute-force dense, 1 BLAS thread"),
        ("no added load", "brute-force dense, all BLAS threads")]
    assert 0 < summary["retrieve_ms_p50"] <= summary["retrieve_ms_p95"]
    assert summary["speedup_p50"] == round(summary["dense_retrieve_ms_p50"] / summary["retrieve_ms_p50"], 2)
    assert "loaded_retrieve_ms_p50" not in summary


def test_busy_process_runs_inside_the_block_and_is_gone_after_it():
    with busy_process() as burner:
        os.kill(burner["pid"], 0)  # running: no error
        assert "cpu_fraction" not in burner
    with pytest.raises(ProcessLookupError):
        os.kill(burner["pid"], 0)
    assert "cpu_fraction" in burner  # measured for the report (its size depends on the machine's load)
