import json

from benchmarks.repo.demo import FILES, write_files


def test_bench_rpg_prints_build_update_and_search_side_by_side(agent_cli, tmp_path):
    write_files(tmp_path / "src", {k: v for k, v in FILES.items() if k.endswith(".py")})
    result = agent_cli("bench", "rpg", "--path", str(tmp_path / "src" / "shop"), "--queries", "3",
                       "--json-out", str(tmp_path / "perf.json"))
    assert result.code == 0, result.err
    summary = json.loads((tmp_path / "perf.json").read_text())["summary"]
    assert summary["incremental_equals_rebuild"] is True
    for key in ("full_build_lines_per_s", "incremental_fraction_of_full", "search.both.median_ms"):
        assert key in result.out and summary[key] > 0
    assert agent_cli("bench", "rpg", "--path", str(tmp_path / "nowhere")).code == 2
