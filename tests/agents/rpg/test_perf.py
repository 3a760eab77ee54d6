from agents.rpg.perf import measure
from benchmarks.repo.demo import FILES, write_files


def test_measure_reports_side_by_side_figures(tmp_path):
    source = tmp_path / "src" / "shop"
    write_files(tmp_path / "src", {k: v for k, v in FILES.items() if k.endswith(".py")})
    summary, rows = measure(source, tmp_path / "scratch", queries=5)
    assert summary["files"] == 6 and summary["lines"] > 50 and summary["incremental_equals_rebuild"] is True
    assert summary["full_build_lines_per_s"] > 0 and 0 < summary["incremental_fraction_of_full"]
    assert summary["changed_file"].endswith(".py") and summary["search.both.median_ms"] > 0
    assert [r["measure"].split(" ")[0] for r in rows] == ["full", "incremental", "full"]
