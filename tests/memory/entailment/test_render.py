"""Rendering writes a picture, leaves the graph untouched and picks out the derivation of the best."""

from memory.entailment.graph import HeuristicNode
from memory.entailment.render import lineage, operation, render
from tests.memory.entailment.test_graph import small_graph


def test_render_writes_a_png(tmp_path):
    graph = small_graph()
    before = graph.to_dict()
    path = render(graph, tmp_path / "graph.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert graph.to_dict() == before


def test_the_lineage_of_the_best_is_its_ancestors_and_their_edges():
    graph = small_graph()
    graph.add(HeuristicNode("e", "code_e", "other", rationale="hoist: shrink", score=5.0), ["a"])
    nodes, edges = lineage(graph, "c")
    assert nodes == {"a", "b", "c"} and sorted(edges) == [("a", "c"), ("b", "c")]
    assert lineage(graph, "a") == ({"a"}, [])


def test_edge_labels_name_the_operation():
    assert operation("crossover: graft a subtree of the second parent into the first") == "crossover"
    assert operation("mix both rules and make them sharper") == "mix both rules an…"
