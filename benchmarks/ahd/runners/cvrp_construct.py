"""Sandbox-side loop for constructive CVRP: ``select_next_node`` picks a customer or the depot (0).

The vehicle starts full at the depot. When no unvisited customer fits the rest capacity the vehicle
returns to the depot without asking. Choosing a visited node or one whose demand exceeds the rest
capacity is an illegal move.
"""

import numpy as np

from ahd_common import IllegalMove, InvalidReturn, as_node, distance_matrix


def solve_all(select_next_node, data):
    return [construct(select_next_node, distance_matrix(coords), _read_only(demands), float(capacity))
            for coords, demands, capacity in zip(data["coords"], data["demands"], data["capacity"])]


def _read_only(demands):
    demands = demands.astype(float)
    demands.setflags(write=False)
    return demands


def construct(select_next_node, distances, demands, capacity):
    unvisited = np.ones(len(distances), dtype=bool)
    unvisited[0] = False
    route, current, rest = [0], 0, capacity
    while unvisited.any():
        if not (unvisited & (demands <= rest)).any():
            current, rest = 0, capacity
            route.append(0)
            continue
        raw = select_next_node(current, 0, np.flatnonzero(unvisited), rest, demands, distances)
        node = _checked(as_node(raw, "select_next_node"), current, unvisited, demands, rest)
        rest = capacity if node == 0 else rest - float(demands[node])
        unvisited[node] = False
        route.append(node)
        current = node
    route.append(0)
    return route


def _checked(node, current, unvisited, demands, rest):
    if node == 0:
        if current == 0:
            raise InvalidReturn("select_next_node returned the depot while at the depot")
        return node
    if not 0 < node < len(unvisited) or not unvisited[node]:
        raise IllegalMove(f"select_next_node chose node {node}, which is not unvisited")
    if demands[node] > rest:
        raise IllegalMove(f"node {node} needs {demands[node]:g} but only {rest:g} is left: overfull vehicle")
    return node
