"""Rendering writes a picture and leaves the graph untouched."""

from memory.entailment.render import render
from tests.memory.entailment.test_graph import small_graph


def test_render_writes_a_png(tmp_path):
    graph = small_graph()
    before = graph.to_dict()
    path = render(graph, tmp_path / "graph.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert graph.to_dict() == before
