"""Draw the entailment graph: rounds left to right, nodes coloured by score, failures grey."""

from __future__ import annotations

from pathlib import Path

import networkx as nx

from memory.entailment.graph import EntailmentGraph


def render(graph: EntailmentGraph, path: str | Path, title: str = "entailment graph") -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    g = graph.graph.copy()
    depth = {n: 0 for n in g.nodes}
    for node in nx.topological_sort(g):
        for child in g.successors(node):
            depth[child] = max(depth[child], depth[node] + 1)
    for node in g.nodes:
        g.nodes[node]["layer"] = depth[node]
    positions = nx.multipartite_layout(g, subset_key="layer") if len(g) else {}
    scores = [g.nodes[n]["score"] for n in g.nodes]
    finite = [s for s in scores if s is not None]
    colours = [s if s is not None else (max(finite) if finite else 0.0) for s in scores]
    figure, axis = plt.subplots(figsize=(max(6, len(set(depth.values())) * 1.6), 6))
    nx.draw_networkx_edges(g, positions, ax=axis, alpha=0.3, arrowsize=6)
    drawn = nx.draw_networkx_nodes(g, positions, ax=axis, node_size=60, node_color=colours, cmap="viridis_r",
                                   edgecolors=["red" if s is None else "none" for s in scores])
    if finite:
        figure.colorbar(drawn, ax=axis, label="gap % (lower is better)")
    best = graph.best()
    if best is not None:
        axis.annotate(f"best {best.id}: {best.score:.3f}%", positions[best.id], fontsize=8)
    axis.set_title(f"{title} ({len(g)} heuristics, red rim = failed)")
    axis.axis("off")
    path = Path(path)
    figure.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(figure)
    return path
