import json

from benchmarks.repo.demo import build_demo, commit_all, write_files


def test_encode_localise_then_update_incrementally(agent_cli, tmp_path):
    repo, instances = build_demo(tmp_path / "src")
    graph = tmp_path / "graph.sqlite"
    result = agent_cli("run", "rpg", "--repo", str(repo), "--graph", str(graph), "--issue",
                       instances[0]["problem_statement"], "--json-out", str(tmp_path / "a.json"))
    assert result.code == 0, result.err
    first = json.loads((tmp_path / "a.json").read_text())
    assert first["summary"]["mode"] == "full build" and first["summary"]["lifter"].startswith("offline lifter")
    assert first["summary"]["policy"].startswith("offline policy")
    assert first["rows"][0]["entity"] == "shop/pricing.py:apply_discount" and graph.is_file()
    write_files(repo, {"shop/util.py": (repo / "shop/util.py").read_text() + "\n\ndef cents(x):\n    return x * 100\n"})
    commit_all(repo, "add cents")
    assert agent_cli("run", "rpg", "--repo", str(repo), "--graph", str(graph), "--json-out", str(tmp_path / "b.json")).code == 0
    second = json.loads((tmp_path / "b.json").read_text())["summary"]
    assert second["mode"].startswith("incremental from") and second["parsed_files"] == 1
    assert second["nodes.function"] == first["summary"]["nodes.function"] + 1


def test_plain_folder_and_model_lifter_without_model(agent_cli, tmp_path):
    write_files(tmp_path / "code", {"a.py": "def f():\n    return g()\n\n\ndef g():\n    return 1\n",
                                    "broken.py": "def (:\n"})
    result = agent_cli("run", "rpg", "--repo", str(tmp_path / "code"), "--json-out", str(tmp_path / "r.json"))
    assert result.code == 0, result.err
    report = json.loads((tmp_path / "r.json").read_text())
    assert report["summary"]["edges.invokes"] == 1 and report["summary"]["skipped"] == 1
    assert report["rows"] == [{"kind": "skipped", "file": "broken.py",
                               "reason": report["rows"][0]["reason"]}]
    result = agent_cli("run", "rpg", "--repo", str(tmp_path / "code"), "--lifter", "model")
    assert result.code == 2 and "needs a model" in result.err
    result = agent_cli("run", "rpg", "--repo", str(tmp_path / "code"), "--commit", "deadbeef")
    assert result.code == 2 and "needs a git repository" in result.err  # it was ignored: a full build of the folder
