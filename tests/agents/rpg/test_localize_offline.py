from agents.rpg.localize_offline import OfflineRanker, RankConfig, levels
from memory.rpg.graph import EdgeKind, Node, NodeKind
from tools.rpg.workspace import RPGWorkspace


def ranker_for(demo, demo_rpg):
    return OfflineRanker(RPGWorkspace(demo_rpg, repo=demo[0]))


def test_planted_bugs_rank_their_files_first(demo, demo_rpg):
    ranker = ranker_for(demo, demo_rpg)
    (shop1, shop2, shop3) = (instance["problem_statement"] for instance in demo[1])
    assert ranker.rank(shop1).files[0] == "shop/pricing.py"
    assert ranker.rank(shop1).functions[0] == "shop/pricing.py:apply_discount"
    assert ranker.rank(shop3).files[0] == "shop/models.py"
    # shop-2's fix hides behind a call from the cart: the default walk (0.1, chosen on real instances) keeps it in
    # the top three, and a walk weighted 0.5 lifts it to the top
    assert "shop/models.py" in ranker.rank(shop2).files[:3]
    assert ranker.rank(shop2, RankConfig(walk_weight=0.5)).files[0] == "shop/models.py"
    assert ranker.rank(shop2, RankConfig(walk_weight=0.0)).files[0] != "shop/models.py"


def test_levels_rank_functions_classes_and_files_apart(demo, demo_rpg):
    workspace = RPGWorkspace(demo_rpg, repo=demo[0])
    scores = {"shop/models.py:Item": 3.0, "shop/models.py:Item.price": 1.0, "shop/cart.py:Cart.total": 2.0,
              "shop/cart.py": 1.0, "tests/test_cart.py": 9.0}
    ranking = levels(workspace, scores, RankConfig())
    assert ranking.functions == ["shop/cart.py:Cart.total", "shop/models.py:Item.price"]  # the class is no function
    assert ranking.modules == ["shop/models.py:Item", "shop/cart.py:Cart"]  # a module scores its best unit
    assert ranking.files == ["shop/models.py", "shop/cart.py"]  # 3.0 against 2.0 + 0.5 * 1.0
    demo_rpg.add(Node("shop/cart.py:Cart.total.inner", NodeKind.FUNCTION, "inner", "shop/cart.py", 16, 16))
    demo_rpg.link("shop/cart.py:Cart.total", "shop/cart.py:Cart.total.inner", EdgeKind.CONTAINS)
    nested = levels(workspace, {"shop/cart.py:Cart.total.inner": 5.0, "shop/util.py:round_money": 1.0}, RankConfig())
    assert nested.functions == ["shop/cart.py:Cart.total", "shop/util.py:round_money"]  # folded into its holder


def test_each_component_can_be_switched_off(demo, demo_rpg):
    ranker = ranker_for(demo, demo_rpg)
    issue = "`empty_receipt()` crashes on an empty cart"
    lexical = ranker.scores(issue, RankConfig(place_weight=0.0, walk_weight=0.0))
    assert lexical == ranker.signals(issue, "lexical") == ranker.scores(issue, RankConfig(walk_weight=0.0))
    placed = ranker.scores("crash in File \"/x/shop/report.py\", line 9, in empty_receipt", RankConfig(walk_weight=0))
    assert placed["shop/report.py"] >= 0.5 and placed["shop/report.py:empty_receipt"] > 0.0
    assert "shop/report.py:empty_receipt" in ranker.signals(issue, "names")
    from_names = ranker.scores(issue, RankConfig(seeds=0))  # the walk starts from the quoted code alone
    walked = {n: v - lexical.get(n, 0.0) for n, v in from_names.items() if v > lexical.get(n, 0.0)}
    assert {"shop/report.py:receipt", "shop/cart.py:Cart"} <= set(walked)  # what empty_receipt calls
    assert ranker.scores(issue, RankConfig(seeds=0, name_weight=0.0)) == lexical  # nowhere to start
    assert ranker.matrix(RankConfig()) is ranker.matrix(RankConfig(walk_weight=0.3))  # same edge weights, one matrix


def test_named_code_is_file_evidence_only(demo, demo_rpg):
    workspace = RPGWorkspace(demo_rpg, repo=demo[0])
    scores = {"shop/cart.py:Cart.total": 1.0, "shop/models.py:Item.price": 0.8}
    named = {"shop/models.py:Item": 0.6, "tests/test_cart.py": 1.0}
    plain = levels(workspace, scores, RankConfig(), named)
    assert plain.files == ["shop/cart.py", "shop/models.py"]  # off by default
    weighted = levels(workspace, scores, RankConfig(name_file_weight=0.5), named)
    assert weighted.files == ["shop/models.py", "shop/cart.py"]  # 0.8 + 0.5 * 0.6 against 1.0; no test file
    assert weighted.functions == plain.functions == ["shop/cart.py:Cart.total", "shop/models.py:Item.price"]


def test_the_title_weighs_more_than_the_body(demo, demo_rpg):
    ranker = ranker_for(demo, demo_rpg)
    issue = "\n  Receipt for an empty cart is wrong\nSteps: add an item, set its price and a discount, then remove it."
    title = ranker.signals(issue, "title")
    assert title == ranker.signals("Receipt for an empty cart is wrong", "lexical")  # the first non-empty line
    body_only = ranker.evidence(issue, RankConfig(title_weight=0.0, place_weight=0.0))
    with_title = ranker.evidence(issue, RankConfig(title_weight=0.3, place_weight=0.0))
    assert with_title == {node: body_only.get(node, 0.0) + 0.3 * title.get(node, 0.0) for node in with_title}
    assert max(title, key=title.get).startswith("shop/report.py")
    assert ranker.signals("Receipt for an empty cart is wrong", "title") == {}  # one line: all body, no title
