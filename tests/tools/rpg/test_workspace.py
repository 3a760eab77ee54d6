from agents.rpg.build import build_rpg
from agents.rpg.evolve import evolve
from agents.rpg.lift_offline import OfflineLifter
from agents.rpg.source import read_commit
from benchmarks.repo.demo import build_demo, commit_all, write_files
from tools.rpg.gitobjects import read_objects
from tools.rpg.workspace import FuzzyIndex, RPGWorkspace, is_support_path, is_test_path, trigrams


def test_fuzzy_index_tolerates_typos_and_forgets_removed_nodes():
    index = FuzzyIndex()
    index.add("a", ["apply discount"])
    index.add("b", ["add tax", "compute tax"])
    scores = index.scores("aply discnt")
    assert max(scores, key=scores.get) == "a" and scores.get("b", 0) < scores["a"]
    assert trigrams("ab") == {"  a", " ab", "ab "}
    index.remove("a")
    assert "a" not in index.scores("aply discnt")
    index.add("b", ["apply discount"])  # re-adding replaces the old phrases
    assert index.scores("compute tax").get("b", 0) < 0.5 and index.scores("apply discount")["b"] == 1.0


def test_code_is_read_from_the_commit_when_no_checkout(tmp_path):
    repo, instances = build_demo(tmp_path)
    commit = instances[0]["base_commit"]
    rpg, _ = build_rpg(read_commit(repo, commit), OfflineLifter(), commit=commit)
    (repo / "shop/util.py").write_text("# changed on disk\n")
    workspace = RPGWorkspace(rpg, repo=repo)
    assert "def round_money" in workspace.code(rpg.node("shop/util.py:round_money"))
    assert workspace.find("round_money") == ["shop/util.py:round_money"]
    assert workspace.find("shop/util.py") == ["shop/util.py"]
    assert workspace.lines("no/such/file.py") == []
    assert read_objects(repo, [f"{commit}:README.md", f"{commit}:missing.txt"]) == [b"# shop\nA tiny shopping cart.\n", None]
    smuggled = f"{commit}:missing.py\n{commit}:README.md"  # a file name with a line break holds a second name
    assert read_objects(repo, [smuggled, f"{commit}:shop/util.py"])[0] is None
    assert b"def round_money" in read_objects(repo, [smuggled, f"{commit}:shop/util.py"])[1]


def test_refreshed_indexes_equal_indexes_built_afresh(tmp_path):
    repo, instances = build_demo(tmp_path)
    rpg, _ = build_rpg(read_commit(repo, instances[0]["base_commit"]), OfflineLifter(),
                       commit=instances[0]["base_commit"])
    workspace = RPGWorkspace(rpg, repo=repo)
    query = "apply a discount to the cart total, coupons and receipts"
    before = workspace.bm25.scores(query)
    (repo / "shop/report.py").unlink()
    write_files(repo, {"shop/coupons.py": '"""Coupons."""\nfrom .pricing import apply_discount\n\n\n'
                                          "def redeem(total, code):\n    return apply_discount(total, 5)\n",
                       "shop/pricing.py": (repo / "shop/pricing.py").read_text().replace("add_tax", "add_vat")})
    new = commit_all(repo, "coupons")
    stats = evolve(rpg, str(repo), new, OfflineLifter())
    workspace.refresh(stats.changed)
    fresh = RPGWorkspace(build_rpg(read_commit(repo, new), OfflineLifter(), commit=new)[0], repo=repo)
    assert workspace.bm25.scores(query) == fresh.bm25.scores(query) != before
    assert workspace.fuzzy.scores(query) == fresh.fuzzy.scores(query)
    assert "shop/coupons.py:redeem" in workspace.bm25.scores("redeem")


def test_refresh_reindexes_only_the_nodes_whose_text_changed(tmp_path):
    repo, instances = build_demo(tmp_path)
    rpg, _ = build_rpg(read_commit(repo, instances[0]["base_commit"]), OfflineLifter(),
                       commit=instances[0]["base_commit"])
    workspace = RPGWorkspace(rpg, repo=repo)
    workspace.bm25  # built before the move, as a reused workspace's are
    readded = []
    add = workspace.bm25.add
    workspace.bm25.add = lambda node_id, text: (readded.append(node_id), add(node_id, text))
    pricing = (repo / "shop/pricing.py").read_text()
    write_files(repo, {"shop/pricing.py": pricing.replace("rm(total * (1 + rate))", "rm(total * (1 + rate) + 0)")})
    stats = evolve(rpg, str(repo), commit_all(repo, "edit add_tax"), OfflineLifter())
    workspace.refresh(stats.changed)
    assert readded == ["shop/pricing.py:add_tax"]  # the file's other units and the file node are as they were
    fresh = RPGWorkspace(build_rpg(read_commit(repo, rpg.commit), OfflineLifter(), commit=rpg.commit)[0], repo=repo)
    query = "add tax to the total"
    assert workspace.bm25.scores(query) == fresh.bm25.scores(query)


def test_test_paths():
    assert all(map(is_test_path, ["tests/test_x.py", "pkg/tests/helpers.py", "pkg/test_y.py", "a/b_test.py",
                                  "conftest.py"]))
    assert not any(map(is_test_path, ["pkg/contest.py", "pkg/testament.py", "pkg/latest/x.py",
                                      "lib/testing/compare.py"]))  # a testing library is code, not tests


def test_support_paths():
    assert all(map(is_support_path, ["tests/test_x.py", "doc/conf.py", "docs/src/example.py",
                                     "examples/user_interfaces/embed.py", "benchmarks/bench_x.py",
                                     "testing/python/collect.py"]))  # pytest keeps its own tests in testing/
    assert not any(map(is_support_path, ["lib/testing/compare.py", "numpy/doc/constants.py", "src/pkg/examples.py",
                                         "setup.py", "pkg/benchmarks.py"]))
