from memory.qmemory.bench import run_retrieval_benchmark, synthetic_entries


def test_synthetic_entries_are_distinct_and_cover_all_kinds():
    entries = synthetic_entries(40, seed=1)
    assert len({e.digest for e in entries}) == 40
    assert len({e.kind for e in entries}) == 4


def test_small_benchmark_reports_latencies(tmp_path):
    report = run_retrieval_benchmark(entries=2000, queries=10, workdir=tmp_path)
    assert report.summary["entries"] == 2000 and report.summary["retrieve_ms_p50"] > 0
    assert [row["step"].split(",")[0] for row in report.rows][1:] == ["index search", "index search"]
