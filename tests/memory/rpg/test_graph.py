from memory.rpg.graph import ROOT_ID, RPG, EdgeKind, Node, NodeKind


def small_graph() -> RPG:
    rpg = RPG("demo", "abc")
    rpg.add(Node("area:pkg", NodeKind.AREA, "pkg"))
    rpg.link(ROOT_ID, "area:pkg", EdgeKind.CONTAINS)
    rpg.add(Node("pkg/a.py", NodeKind.FILE, "a.py", "pkg/a.py", 1, 20))
    rpg.link("area:pkg", "pkg/a.py", EdgeKind.CONTAINS)
    rpg.add(Node("pkg/a.py:C", NodeKind.CLASS, "C", "pkg/a.py", 3, 10, features=["define c"]))
    rpg.add(Node("pkg/a.py:C.run", NodeKind.METHOD, "run", "pkg/a.py", 5, 10))
    rpg.add(Node("pkg/a.py:helper", NodeKind.FUNCTION, "helper", "pkg/a.py", 12, 20))
    rpg.link("pkg/a.py", "pkg/a.py:C", EdgeKind.CONTAINS)
    rpg.link("pkg/a.py:C", "pkg/a.py:C.run", EdgeKind.CONTAINS)
    rpg.link("pkg/a.py", "pkg/a.py:helper", EdgeKind.CONTAINS)
    rpg.link("pkg/a.py:C.run", "pkg/a.py:helper", EdgeKind.INVOKES)
    return rpg


def test_hierarchy_queries_and_edge_kinds():
    rpg = small_graph()
    assert rpg.parent("pkg/a.py:C.run") == "pkg/a.py:C"
    assert set(rpg.descendants("pkg/a.py")) == {"pkg/a.py:C", "pkg/a.py:C.run", "pkg/a.py:helper"}
    assert rpg.out("pkg/a.py:C.run", EdgeKind.INVOKES) == ["pkg/a.py:helper"]
    assert rpg.into("pkg/a.py:helper", EdgeKind.INVOKES) == ["pkg/a.py:C.run"]
    rpg.link("pkg/a.py:C.run", "pkg/a.py:helper", EdgeKind.INVOKES)  # same kind twice is one edge
    assert len(list(rpg.edges(EdgeKind.INVOKES))) == 1
    assert rpg.stats()["nodes.method"] == 1


def test_remove_takes_the_subtree_and_its_edges_then_prune_empties_hierarchy():
    rpg = small_graph()
    rpg.remove("pkg/a.py")
    assert "pkg/a.py:C.run" not in rpg and not list(rpg.edges(EdgeKind.INVOKES))
    assert rpg.prune_empty_hierarchy() == ["area:pkg"]
    assert [n.id for n in rpg.nodes()] == [ROOT_ID]


def test_drop_dependencies_keeps_containment():
    rpg = small_graph()
    rpg.drop_dependencies_from(["pkg/a.py:C.run"])
    assert not list(rpg.edges(EdgeKind.INVOKES))
    assert rpg.children("pkg/a.py:C") == ["pkg/a.py:C.run"]


def test_signature_sees_attribute_and_edge_differences():
    first, second = small_graph(), small_graph()
    assert first.signature() == second.signature()
    second.node("pkg/a.py:C").end = 11
    assert first.signature() != second.signature()
    second.node("pkg/a.py:C").end = 10
    second.unlink("pkg/a.py:C.run", "pkg/a.py:helper", EdgeKind.INVOKES)
    assert first.signature()[1] != second.signature()[1]
