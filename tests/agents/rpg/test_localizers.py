from agents.rpg.localizers import BM25Localizer, GraphCache, RPGLocalizer, function_level
from benchmarks.repo.checkout import RepoCache
from benchmarks.repo.instances import Instance


def test_graph_cache_builds_once_per_commit_and_reloads_from_sqlite(demo, tmp_path):
    repo, instances = demo
    checkout = RepoCache(tmp_path / "cache").worktree(str(repo), instances[0]["base_commit"])
    graphs = GraphCache(tmp_path / "rpg")
    first = graphs.workspace(checkout)
    assert graphs.workspace(checkout) is first
    saved = list((tmp_path / "rpg").glob("*.rpg.sqlite"))
    assert len(saved) == 1
    assert GraphCache(tmp_path / "rpg").workspace(checkout).rpg.signature() == first.rpg.signature()


def test_offline_and_bm25_localisers_return_ranked_levels(demo, tmp_path):
    repo, rows = demo
    instance = Instance.from_row(rows[0])
    checkout = RepoCache(tmp_path / "cache").worktree(str(repo), instance.base_commit)
    graphs = GraphCache(tmp_path / "rpg")
    rpg_prediction = RPGLocalizer(graphs, None).localize(instance, checkout)
    assert rpg_prediction.files[0] == "shop/pricing.py"
    assert rpg_prediction.functions[0] == "shop/pricing.py:apply_discount"
    assert rpg_prediction.modules[0] == "shop/pricing.py:apply_discount"
    assert rpg_prediction.note.startswith("offline policy")
    bm25 = BM25Localizer(graphs).localize(instance, checkout)
    assert bm25.note.startswith("baseline") and bm25.files


def test_nested_functions_collapse_to_their_holder(demo_rpg):
    from memory.rpg.graph import EdgeKind, Node, NodeKind
    demo_rpg.add(Node("shop/util.py:round_money.inner", NodeKind.FUNCTION, "inner", "shop/util.py", 5, 5))
    demo_rpg.link("shop/util.py:round_money", "shop/util.py:round_money.inner", EdgeKind.CONTAINS)
    assert function_level(demo_rpg, "shop/util.py:round_money.inner") == "shop/util.py:round_money"
    assert function_level(demo_rpg, "shop/cart.py:Cart.total") == "shop/cart.py:Cart.total"
