import gc

from agents.rpg.build import EncodeConfig, build_rpg
from agents.rpg.source import read_directory
from agents.rpg.lift_offline import OfflineLifter
from memory.rpg.graph import ROOT_ID, EdgeKind, NodeKind


def test_every_unit_maps_to_a_path_and_line_range(demo_rpg):
    item = demo_rpg.node("shop/models.py:Item.price")
    assert (item.kind, item.path, item.start, item.end) == (NodeKind.METHOD, "shop/models.py", 12, 13)
    for node in demo_rpg.nodes(NodeKind.FILE, NodeKind.CLASS, NodeKind.FUNCTION, NodeKind.METHOD):
        assert node.path and 1 <= node.start <= node.end
    assert demo_rpg.meta["lifter"].startswith("offline lifter")


def test_hierarchy_from_layout_and_features(demo_rpg):
    assert demo_rpg.children(ROOT_ID) == ["area:shop"]
    assert demo_rpg.parent("shop/cart.py") == "area:shop"
    assert demo_rpg.node("shop/pricing.py:apply_discount").features == [
        "apply discount", "apply a percentage discount to a total"]
    assert demo_rpg.node("shop/pricing.py").summary == "discounts and taxes"


def test_directory_build_and_exclusions(demo):
    repo, _ = demo
    rpg, stats = build_rpg(read_directory(repo, 10**6), OfflineLifter(), EncodeConfig(exclude=["shop/report"]))
    assert "shop/report.py" not in rpg and stats.files == 5 and stats.lines > 50
    assert ("shop/cart.py:Cart", "shop/cart.py:Cart.total") in {(s, t) for s, t, _ in rpg.edges(EdgeKind.CONTAINS)}


def test_a_build_lifts_with_the_collector_paused(demo):
    gc.enable()
    seen = []

    class Recording(OfflineLifter):
        def lift_units(self, rpg, unit_ids):
            seen.append(gc.isenabled())
            super().lift_units(rpg, unit_ids)

    repo, _ = demo
    build_rpg(read_directory(repo, 10**6), Recording())
    assert seen == [False] and gc.isenabled()
