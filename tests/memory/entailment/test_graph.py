"""Graph construction: nodes, derivation edges with rationales, parent summaries, leaves and best."""

from memory.entailment.graph import EntailmentGraph, HeuristicNode


def small_graph() -> EntailmentGraph:
    graph = EntailmentGraph()
    graph.add(HeuristicNode("a", "code_a", "first fit", score=4.4, origin="seed"))
    graph.add(HeuristicNode("b", "code_b", "best fit", score=4.1, origin="seed"))
    graph.add(HeuristicNode("c", "code_c", "blend", rationale="mix both rules", score=3.0), ["a", "b"])
    graph.add(HeuristicNode("d", "code_d", "broken", rationale="try powers", failure="crash"), ["c"])
    return graph


def test_a_derivation_links_its_parent_set_with_the_rationale():
    graph = small_graph()
    edges = {(e["source"], e["target"]): e for e in graph.edges()}
    assert set(edges) == {("a", "c"), ("b", "c"), ("c", "d")}
    assert edges[("a", "c")]["rationale"] == edges[("b", "c")]["rationale"] == "mix both rules"
    assert edges[("a", "c")]["derivation"] == edges[("b", "c")]["derivation"] == "c"
    assert sorted(graph.parents("c")) == ["a", "b"]


def test_nodes_keep_a_compact_summary_of_their_parents():
    node = small_graph().node("c")
    assert node.parents == [{"id": "a", "description": "first fit", "score": 4.4},
                            {"id": "b", "description": "best fit", "score": 4.1}]
    assert node.code == "code_c" and node.rationale == "mix both rules"


def test_leaves_best_and_reachable():
    graph = small_graph()
    assert [n.id for n in graph.leaves()] == ["d"]
    assert graph.reachable(["c"]) == {"c", "d"}
    assert graph.best().id == "c"
    assert graph.node("d").fitness == float("inf")


def test_re_adding_a_node_replaces_it_without_duplicate_edges():
    graph = small_graph()
    graph.add(HeuristicNode("d", "code_d2", "fixed", rationale="again", score=2.5), ["c"])
    assert len(graph) == 4 and graph.node("d").score == 2.5
    assert [(e["source"], e["rationale"]) for e in graph.edges() if e["target"] == "d"] == [("c", "again")]


def test_unknown_parents_are_ignored():
    graph = EntailmentGraph()
    graph.add(HeuristicNode("x", "code", "alone"), ["missing"])
    assert graph.parents("x") == [] and graph.node("x").parents == []
