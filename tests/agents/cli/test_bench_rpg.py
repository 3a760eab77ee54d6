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


def test_bench_rpg_ablation_prints_every_variant_side_by_side(agent_cli, tmp_path):
    result = agent_cli("bench", "rpg-ablation", "--variants", "rpg -walk,rpg walk 0.5,rpg -test-filter",
                       "--json-out", str(tmp_path / "ablation.json"))
    assert result.code == 0, result.err
    report = json.loads((tmp_path / "ablation.json").read_text())
    assert [row["variant"] for row in report["rows"]] == ["rpg", "bm25", "rpg -walk", "rpg walk 0.5", "rpg -test-filter"]
    rows = {row["variant"]: row for row in report["rows"]}
    assert rows["rpg walk 0.5"]["file.acc@1"] == 100.0 and report["summary"]["scored"] == 3  # the demo's hidden fix
    assert rows["rpg"]["file.acc@3"] == 100.0
    assert set(report["summary"]["paired.file.acc@1"]) == {"only rpg", "only bm25", "both"}
    assert "rpg -walk" in result.out
    assert agent_cli("bench", "rpg-ablation", "--variants", "rpg -nothing").code == 2


def test_bench_rpg_reuse_compares_evolving_with_rebuilding(agent_cli, tmp_path):
    from benchmarks.repo.generated import build_generated

    _, rows = build_generated(tmp_path / "src")
    (tmp_path / "ledger.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    result = agent_cli("bench", "rpg-reuse", "--instances", str(tmp_path / "ledger.jsonl"),
                       "--json-out", str(tmp_path / "reuse.json"))
    assert result.code == 0, result.err
    report = json.loads((tmp_path / "reuse.json").read_text())
    assert report["summary"]["all_identical"] is True and report["summary"]["instances"] == 5
    assert report["summary"]["after_first.evolved_mean_s"] > 0 and "after_first.rebuilt_over_evolved" in result.out
    assert report["summary"]["after_first.rebuilt_mean_cpu_s"] > 0
    assert "after_first.rebuilt_over_evolved_cpu_s" in result.out
    assert all({"evolved_cpu_s", "rebuilt_cpu_s"} <= set(r) for r in report["rows"])
    steps = [r["changed_py_files"] for r in report["rows"]]
    assert steps[0] is None and all(isinstance(step, int) for step in steps[1:]) and sum(steps[1:]) > 0
    summary = report["summary"]
    assert summary["changed_py_files.harness_order_total"] == sum(steps[1:])
    assert summary["changed_py_files.harness_order_total"] <= summary["changed_py_files.commit_time_order_total"]
    assert [r["instance_id"] for r in report["rows"]] == ["ledger-1", "ledger-2", "ledger-3", "ledger-4", "ledger-5"]
    assert agent_cli("bench", "rpg-reuse", "--instances", str(tmp_path / "ledger.jsonl"), "--repo", "x/y").code == 2
