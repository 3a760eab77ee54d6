from agents.rpg.build import build_rpg
from agents.rpg.lift_offline import OfflineLifter
from agents.rpg.source import read_commit
from benchmarks.repo.demo import build_demo
from tools.rpg.workspace import FuzzyIndex, RPGWorkspace, trigrams


def test_fuzzy_index_tolerates_typos():
    index = FuzzyIndex()
    index.add("a", ["apply discount"])
    index.add("b", ["add tax", "compute tax"])
    scores = index.scores("aply discnt")
    assert max(scores, key=scores.get) == "a" and scores.get("b", 0) < scores["a"]
    assert trigrams("ab") == {"  a", " ab", "ab "}


def test_code_is_read_from_the_commit_when_no_checkout(tmp_path):
    repo, instances = build_demo(tmp_path)
    commit = instances[0]["base_commit"]
    rpg, _ = build_rpg(read_commit(repo, commit), OfflineLifter(), commit=commit)
    (repo / "shop/util.py").write_text("# changed on disk\n")
    workspace = RPGWorkspace(rpg, repo=repo)
    assert "def round_money" in workspace.code(rpg.node("shop/util.py:round_money"))
    assert workspace.find("round_money") == ["shop/util.py:round_money"]
    assert workspace.find("shop/util.py") == ["shop/util.py"]
