"""The entailment graph round-trips through SQLite, JSON and GraphML."""

from memory.entailment.store import GraphStore, read_graphml, read_json, write_graphml, write_json
from tests.memory.entailment.test_graph import small_graph


def same(left, right):
    assert left.to_dict()["nodes"] == right.to_dict()["nodes"]
    key = lambda e: (e["source"], e["target"])  # noqa: E731
    assert sorted(left.edges(), key=key) == sorted(right.edges(), key=key)


def test_sqlite_store_round_trip_node_by_node(tmp_path):
    graph = small_graph()
    store = GraphStore(tmp_path / "graph.sqlite")
    for node in graph.nodes():
        store.save_node(graph, node.id)
    same(GraphStore(tmp_path / "graph.sqlite").load(), graph)


def test_json_and_graphml_round_trip(tmp_path):
    graph = small_graph()
    same(read_json(write_json(graph, tmp_path / "g.json")), graph)
    same(read_graphml(write_graphml(graph, tmp_path / "g.graphml")), graph)
