"""The grammar of each AHD problem: its terminals, its return value and the trees of its classic baselines."""

from __future__ import annotations

from agents.pathwise.gp.grammars import Definition as D
from agents.pathwise.gp.grammars import Grammar
from benchmarks.ahd.registry import get_problem


def bin_packing() -> Grammar:
    """Online bin packing: the highest score wins; features are fractions of the bin capacity."""
    return Grammar(
        get_problem("bpp_online"), "GP tree over the item and the bins' remaining capacities; the highest score wins.",
        shared=(D("cap", "bins_remain_cap.max()", "a bin's capacity (the empty bin is always offered)"),),
        terminals=(
            D("s", "item / cap", "item size", ("cap",), vector=False),
            D("r", "bins_remain_cap / cap", "remaining capacity before the item", ("cap",)),
            D("g", "(bins_remain_cap - item) / cap", "gap left after the item", ("cap",)),
            D("e", "np.where(bins_remain_cap == cap, 1.0, 0.0)", "1 for the empty bin", ("cap",)),
            D("i", "np.arange(len(bins_remain_cap), dtype=float)", "position in opening order"),
        ),
        result="score", scalar_result="np.full(len(bins_remain_cap), score, dtype=float)",
        seeds={"best_fit": ("neg", "g"), "first_fit": ("neg", "i")})


def tsp_construction() -> Grammar:
    """Constructive TSP: the unvisited node with the lowest score is visited next."""
    return Grammar(
        get_problem("tsp_construct"), "GP tree over distances and neighbourhood statistics; the lowest score is next.",
        shared=(D("sub", "distance_matrix[np.ix_(unvisited_nodes, unvisited_nodes)]",
                  "distances among the unvisited nodes"),),
        terminals=(
            D("dc", "distance_matrix[current_node, unvisited_nodes]", "distance from the current node"),
            D("dd", "distance_matrix[destination_node, unvisited_nodes]", "distance to the destination"),
            D("mu", "sub.mean(axis=1)", "mean distance to the unvisited nodes", ("sub",)),
            D("nn", "np.partition(sub, min(1, len(sub) - 1), axis=1)[:, min(1, len(sub) - 1)]",
              "distance to the nearest other unvisited node", ("sub",)),
            D("dmin", "dc.min()", "distance to the nearest unvisited node", ("dc",), vector=False),
            D("f", "len(unvisited_nodes) / len(distance_matrix)", "fraction of nodes unvisited", vector=False),
        ),
        result="int(unvisited_nodes[np.argmin(score)])", seeds={"nearest_neighbour": "dc"})


def tsp_guided_local_search() -> Grammar:
    """TSP guided local search: the edge-badness matrix."""
    return Grammar(
        get_problem("tsp_gls"), "GP tree over edge lengths and each end's neighbourhood: the badness of every edge.",
        terminals=(
            D("d", "distance_matrix", "edge length"),
            D("rmean", "distance_matrix.mean(axis=1, keepdims=True)", "mean edge length at the first end"),
            D("cmean", "distance_matrix.mean(axis=0, keepdims=True)", "mean edge length at the second end"),
            D("rnn", "np.partition(distance_matrix, 1, axis=1)[:, 1:2]", "nearest-neighbour distance of the first end"),
            D("cnn", "rnn.T", "nearest-neighbour distance of the second end", ("rnn",)),
        ),
        result="np.array(np.broadcast_to(score, distance_matrix.shape), dtype=float)", seeds={"gls_distance": "d"})


def knapsack() -> Grammar:
    """Constructive knapsack: the item with the highest score is taken next."""
    return Grammar(
        get_problem("kp_construct"), "GP tree over the items' weights and values; the highest score is taken next.",
        terminals=(
            D("w", "weights", "weight"),
            D("v", "values", "value"),
            D("u", "weights / remaining_capacity", "share of the remaining capacity the item takes"),
            D("c", "float(remaining_capacity)", "remaining capacity", vector=False),
        ),
        result="int(np.argmax(score))", seeds={"greedy_ratio": ("div", "v", "w")})


def vehicle_routing() -> Grammar:
    """Constructive CVRP: among the customers that fit, the lowest score is next; the depot when none fits."""
    return Grammar(
        get_problem("cvrp_construct"), "GP tree over distances and demands; the feasible customer with the lowest "
                                       "score is next.",
        guard=("feasible = unvisited_nodes[demands[unvisited_nodes] <= rest_capacity]",
               "if len(feasible) == 0:", "    return depot"),
        terminals=(
            D("dc", "distance_matrix[current_node, feasible]", "distance from the current node"),
            D("dd", "distance_matrix[depot, feasible]", "distance to the depot"),
            D("q", "demands[feasible]", "demand"),
            D("u", "demands[feasible] / rest_capacity", "share of the rest capacity the demand takes"),
            D("c", "float(rest_capacity)", "rest capacity", vector=False),
        ),
        result="int(feasible[np.argmin(score)])", seeds={"nearest_feasible": "dc"})


GRAMMARS = {grammar.problem.name: grammar for grammar in (
    bin_packing(), tsp_construction(), tsp_guided_local_search(), knapsack(), vehicle_routing())}


def grammar_for(problem: str) -> Grammar:
    """The grammar of the AHD problem called ``problem`` (every registered problem has one)."""
    return GRAMMARS[problem]
