import json

from agents.runtime.run import Run


def test_bench_qmemory_prints_every_index_and_the_loaded_condition(agent_cli, tmp_path):
    result = agent_cli("bench", "qmemory", "--entries", "1500", "--queries", "5", "--load", "--words", "5-20",
                       "--query-words", "3-6", "--dim", "512", "--json-out", str(tmp_path / "q.json"))
    assert result.code == 0, result.err
    report = json.loads((tmp_path / "q.json").read_text())
    summary = report["summary"]
    assert summary["entries"] == 1500 and summary["words_per_entry"] == "5-20"
    assert summary["words_per_query"] == "3-6" and summary["embedder"] == "hashed-tfidf-512"
    assert summary["same_candidates"] == "5/5" and "load_cpu_fraction" in summary  # its size: the load's
    for key in ("retrieve_ms_p50", "speedup_p50", "loaded_retrieve_ms_p95", "loaded_speedup_p50"):
        assert key in result.out and summary[key] > 0
    assert [row["condition"] for row in report["rows"]] == ["no added load"] * 3 + ["+1 busy process"] * 3
    run = Run.open(report["run"]["id"])
    assert run.status == "finished" and run.read_report().summary["entries"] == 1500


def test_a_malformed_word_range_is_a_user_error(agent_cli):
    result = agent_cli("bench", "qmemory", "--words", "40-12")
    assert result.code == 2 and "--words must look like 12-39" in result.err
    assert agent_cli("bench", "qmemory", "--query-words", "x").code == 2
