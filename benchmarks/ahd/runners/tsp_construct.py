"""Sandbox-side loop for constructive TSP: start at node 0, ask ``select_next_node`` for each step."""

import numpy as np

from ahd_common import IllegalMove, as_node, distance_matrix


def solve_all(select_next_node, data):
    return [construct(select_next_node, distance_matrix(coords)) for coords in data["coords"]]


def construct(select_next_node, distances):
    n = len(distances)
    unvisited = np.ones(n, dtype=bool)
    unvisited[0] = False
    tour = [0]
    while len(tour) < n:
        candidates = np.flatnonzero(unvisited)
        raw = select_next_node(tour[-1], 0, candidates.copy(), distances)
        node = as_node(raw, "select_next_node")
        if not 0 <= node < n or not unvisited[node]:
            raise IllegalMove(f"select_next_node chose node {node}, which is not unvisited")
        unvisited[node] = False
        tour.append(node)
    return tour
