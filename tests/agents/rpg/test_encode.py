import pytest

from agents.rpg.encode import choose_lifter, encode_repository, open_workspace
from benchmarks.repo.demo import commit_all, write_files
from sandboxes.errors import UserError


def test_encode_then_load_then_evolve_a_saved_graph(demo, tmp_path):
    repo, _ = demo
    graph = tmp_path / "g.json"
    assert encode_repository(repo, graph=graph).mode == "full build"
    assert encode_repository(repo, graph=graph).mode == "loaded"
    write_files(repo, {"shop/util.py": "def only():\n    return 0\n"})
    commit_all(repo, "rewrite util")
    evolved = encode_repository(repo, graph=graph)
    assert evolved.mode.startswith("incremental from") and "shop/util.py:only" in evolved.rpg
    assert "shop/util.py:round_money" not in evolved.rpg


def test_open_workspace_on_a_plain_folder(tmp_path):
    write_files(tmp_path / "code", {"m.py": "def f():\n    return 1\n"})
    workspace = open_workspace(tmp_path / "code")
    assert workspace.code(workspace.rpg.node("m.py:f")) == "def f():\n    return 1"
    with pytest.raises(UserError, match="needs a model"):
        choose_lifter("model", None, tmp_path, None)
