"""Personalised PageRank over the code graph, with degree normalisation.

The graph is taken as undirected (a caller is evidence for its callee and the other way round), each
edge kind with its own weight. A walker restarts at the seeds with probability ``restart`` and
otherwise moves to a neighbour in proportion to the edge weight, so a node's share of the flow is
split over its edges instead of copied to each (the degree-only spreading that made hubs win).
Even so, PageRank mass grows with degree (for an undirected graph the walk's stationary mass is
proportional to it), so the reported evidence is the mass divided by ``degree ** degree_power``:
1 removes the hub bias entirely, 0 keeps plain PageRank. Nodes are numbered in sorted-id order and
edges summed in sorted order, so the result does not depend on the order the graph was built in.
"""

from __future__ import annotations

import numpy as np
from scipy import sparse

from memory.rpg.graph import CODE_KINDS, RPG, EdgeKind


class CodeMatrix:
    """The weighted, symmetric adjacency of the code nodes of one graph state."""

    def __init__(self, rpg: RPG, weights: dict[EdgeKind, float]):
        self.ids = sorted(n.id for n in rpg.nodes(*CODE_KINDS))
        self.position = {node_id: i for i, node_id in enumerate(self.ids)}
        rows, cols, values = _symmetric_entries(rpg, self.position, weights)
        size = len(self.ids)
        self.adjacency = sparse.csr_matrix((values, (rows, cols)), shape=(size, size), dtype=np.float64)
        self.adjacency.sum_duplicates()
        self.degree = np.asarray(self.adjacency.sum(axis=1)).ravel()


def _symmetric_entries(rpg: RPG, position: dict[str, int], weights: dict[EdgeKind, float]) -> tuple[np.ndarray, ...]:
    """Rows, columns and weights of both directions of every weighted edge between two distinct code
    nodes, sorted, so that duplicates are summed in the same order whatever order the graph was built in."""
    by_key = {kind.value: weight for kind, weight in weights.items() if weight > 0}
    triples = [(position[source], position[target], by_key[key])
               for source, targets in rpg.graph.succ.items() if source in position
               for target, keys in targets.items() if target in position and target != source
               for key in keys if key in by_key]
    forward = np.array(triples, dtype=np.float64).reshape(-1, 3)
    rows = np.concatenate([forward[:, 0], forward[:, 1]]).astype(np.int64)
    cols = np.concatenate([forward[:, 1], forward[:, 0]]).astype(np.int64)
    values = np.concatenate([forward[:, 2], forward[:, 2]])
    order = np.lexsort((values, cols, rows))
    return rows[order], cols[order], values[order]


def personalised_pagerank(matrix: CodeMatrix, seeds: dict[str, float], restart: float, iterations: int,
                          degree_power: float) -> dict[str, float]:
    """Degree-normalised PPR evidence per node, from the walk alone (the restart mass is left out).

    Seeds are non-negative weights (normalised here). Mass on a node without edges leaves the walk,
    so an isolated seed gains nothing from it.
    """
    size = len(matrix.ids)
    start = np.zeros(size)
    for node_id, weight in sorted(seeds.items()):
        if node_id in matrix.position and weight > 0:
            start[matrix.position[node_id]] += weight
    if size == 0 or start.sum() <= 0:
        return {}
    start /= start.sum()
    inverse_degree = np.divide(1.0, matrix.degree, out=np.zeros(size), where=matrix.degree > 0)
    mass = start.copy()
    for _ in range(iterations):
        mass = restart * start + (1 - restart) * (matrix.adjacency @ (mass * inverse_degree))
    walked = np.maximum(mass - restart * start, 0.0)
    evidence = walked / np.power(np.maximum(matrix.degree, 1.0), degree_power)
    return {matrix.ids[i]: float(evidence[i]) for i in np.flatnonzero(evidence > 0)}
