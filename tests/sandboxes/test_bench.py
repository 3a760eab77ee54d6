from sandboxes.bench import run_bench


def test_bench_measures_every_backend_side_by_side():
    summary, rows = run_bench(jobs=1, kinds=("python",))
    measured = {row["backend"]: row for row in rows if row["jobs"]}
    assert measured["bare"]["ratio_vs_bare"] == 1.0
    assert measured["local"]["failures"] == 0 and measured["local"]["mean_ms"] > 0
    assert all("skipped" in row for row in rows if not row["jobs"])
    assert summary["jobs_per_backend"] == 1
