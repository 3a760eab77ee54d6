"""Draw the entailment graph: rounds left to right, nodes coloured by score, failures with a black rim.

The derivations that led to the best heuristic (its ancestors and the edges among them) are drawn in red,
each edge labelled with the operation that made the child (its rationale up to the first colon, shortened;
the origin, such as ``init``, for heuristics not made by a search step),
and each heuristic on that path labelled with its gap. The colour scale stops at the median gap, so a few
very bad heuristics do not wash out the differences among the good ones.
"""

from __future__ import annotations

from pathlib import Path
from statistics import median

import networkx as nx

from memory.entailment.graph import EntailmentGraph

LABEL_CHARS = 18
LINEAGE = "tab:red"
FAILED = "black"


def lineage(graph: EntailmentGraph, node_id: str) -> tuple[set[str], list[tuple[str, str]]]:
    """The heuristics ``node_id`` was derived from (itself included) and the derivation edges among them."""
    nodes = nx.ancestors(graph.graph, node_id) | {node_id}
    return nodes, [(u, v) for u, v in graph.graph.edges if u in nodes and v in nodes]


def operation(rationale: str) -> str:
    """An edge's short label: the rationale up to its first colon, at most :data:`LABEL_CHARS` characters."""
    head = rationale.split(":", 1)[0].strip()
    return head if len(head) <= LABEL_CHARS else head[:LABEL_CHARS - 1] + "…"


def _label(data: dict) -> str:
    return operation(data["rationale"]) if data["origin"] == "rollout" and data["rationale"] else data["origin"]


def _layers(g: nx.DiGraph) -> dict:
    depth = {n: 0 for n in g.nodes}
    for node in nx.topological_sort(g):
        for child in g.successors(node):
            depth[child] = max(depth[child], depth[node] + 1)
    for node in g.nodes:
        g.nodes[node]["layer"] = depth[node]
    return nx.multipartite_layout(g, subset_key="layer") if len(g) else {}


def render(graph: EntailmentGraph, path: str | Path, title: str = "entailment graph") -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    g = graph.graph.copy()
    positions = _layers(g)
    scores = [g.nodes[n]["score"] for n in g.nodes]
    finite = [s for s in scores if s is not None]
    top = median(finite) if finite else 0.0
    colours = [min(s, top) if s is not None else top for s in scores]
    layers = len({g.nodes[n]["layer"] for n in g.nodes})
    figure, axis = plt.subplots(figsize=(max(6, layers * 1.6), 6))
    nx.draw_networkx_edges(g, positions, ax=axis, alpha=0.25, arrowsize=6)
    drawn = nx.draw_networkx_nodes(g, positions, ax=axis, node_size=60, node_color=colours, cmap="viridis_r",
                                   edgecolors=[FAILED if s is None else "none" for s in scores])
    if finite:
        figure.colorbar(drawn, ax=axis, label=f"gap % (lower is better; scale stops at the median, {top:.3g})")
    best = graph.best()
    if best is not None:
        _draw_lineage(graph, g, positions, axis, best.id)
    axis.set_title(f"{title} ({len(g)} heuristics, black rim = failed, red path = derivation of the best)")
    axis.axis("off")
    path = Path(path)
    figure.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(figure)
    return path


def _draw_lineage(graph: EntailmentGraph, g: nx.DiGraph, positions: dict, axis, best_id: str) -> None:
    nodes, edges = lineage(graph, best_id)
    nx.draw_networkx_edges(g, positions, edgelist=edges, ax=axis, edge_color=LINEAGE, width=1.8, arrowsize=10)
    nx.draw_networkx_edge_labels(g, positions, ax=axis, font_size=6, font_color=LINEAGE, rotate=False,
                                 edge_labels={(u, v): _label(g.nodes[v]) for u, v in edges})
    nx.draw_networkx_nodes(g, positions, nodelist=sorted(nodes), ax=axis, node_size=90, node_color="none",
                           edgecolors=LINEAGE, linewidths=1.5)
    for node in nodes:
        score = g.nodes[node]["score"]
        text = f"{node}: {score:.3f}%" if score is not None else f"{node}: failed"
        axis.annotate(("best " if node == best_id else "") + text, positions[node], fontsize=7,
                      xytext=(4, 4), textcoords="offset points")
