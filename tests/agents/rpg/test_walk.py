from agents.rpg.walk import CodeMatrix, personalised_pagerank
from memory.rpg.graph import RPG, EdgeKind, Node, NodeKind

WEIGHTS = {EdgeKind.INVOKES: 1.0, EdgeKind.CONTAINS: 0.0}


def star(order):
    """S calls H (a hub with ten other callers) and N (called by S alone); nodes added in ``order``."""
    rpg = RPG()
    names = ["S", "H", "N"] + [f"L{i}" for i in range(10)]
    for name in (names if order else names[::-1]):
        rpg.add(Node(f"m.py:{name}", NodeKind.FUNCTION, name, "m.py"))
    links = [("S", "H"), ("S", "N")] + [(f"L{i}", "H") for i in range(10)]
    for source, target in (links if order else links[::-1]):
        rpg.link(f"m.py:{source}", f"m.py:{target}", EdgeKind.INVOKES)
    return rpg


def walk(rpg, power, seeds=None):
    return personalised_pagerank(CodeMatrix(rpg, WEIGHTS), seeds or {"m.py:S": 1.0}, 0.3, 30, power)


def test_degree_normalisation_keeps_hubs_from_winning():
    rpg = star(True)
    plain, normalised = walk(rpg, 0.0), walk(rpg, 1.0)
    assert plain["m.py:H"] > plain["m.py:N"]  # PageRank favours the hub
    assert normalised["m.py:N"] > normalised["m.py:H"]  # divided by degree, the private callee wins
    assert "m.py:S" not in normalised or normalised["m.py:S"] < normalised["m.py:N"]  # restart mass is left out


def test_result_does_not_depend_on_build_order_and_ignores_unknown_seeds():
    assert walk(star(True), 1.0) == walk(star(False), 1.0)
    assert walk(star(True), 1.0, {"nowhere": 1.0}) == {}
    lonely = RPG()
    lonely.add(Node("m.py:f", NodeKind.FUNCTION, "f", "m.py"))
    assert personalised_pagerank(CodeMatrix(lonely, WEIGHTS), {"m.py:f": 1.0}, 0.3, 10, 1.0) == {}
