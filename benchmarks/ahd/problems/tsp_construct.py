"""Constructive TSP (EoH / ReEvo / MCTS-AHD step-by-step construction) on uniform random points.

Points are uniform in the unit square. A tour starts at node 0; ``select_next_node`` picks every next
node. Gap: mean per-instance excess length over an OR-Tools guided-local-search reference tour.
Training: 32 instances of 50 nodes. Test: 20, 50, 100, 200 nodes (64, 64, 64, 32 instances) and 500
nodes (8 instances), beyond the training size.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from benchmarks.ahd import references
from benchmarks.ahd.problem import InstanceSet, SetSpec, check_lengths, check_permutation, tour_length
from benchmarks.ahd.problems.cached import CachedReference

NEAREST_NEIGHBOUR = '''import numpy as np


def select_next_node(current_node: int, destination_node: int, unvisited_nodes: np.ndarray,
                     distance_matrix: np.ndarray) -> int:
    """Nearest neighbour: go to the closest unvisited node."""
    return int(unvisited_nodes[np.argmin(distance_matrix[current_node, unvisited_nodes])])
'''

TEST_SETS = ((20, 64), (50, 64), (100, 64), (200, 32), (500, 8))


def uniform_points(spec: SetSpec, extra_nodes: int = 0) -> np.ndarray:
    """``spec.count`` instances of ``spec.size + extra_nodes`` uniform points (a prefix-stable stream)."""
    return np.random.default_rng(spec.seed).random((spec.count, spec.size + extra_nodes, 2))


def reference_seconds(size: int) -> float:
    """OR-Tools time limit per instance, growing with the instance size."""
    return 1.0 if size <= 50 else 2.0 if size <= 100 else 4.0 if size <= 200 else 12.0


def reference_rounds(size: int) -> int:
    """Rounds of the suite's own guided local search for a reference tour."""
    return 1500 if size <= 100 else 2500 if size <= 200 else 1500


class TspUniform(CachedReference):
    """Shared instance sets and references of the TSP problems."""

    family = "tsp_uniform"
    reference_method = ("shorter of OR-Tools GLS (path-cheapest-arc start, 1/2/4/12 s for n<=50/100/200/500) and "
                        "2-opt guided local search with 1500/1500/2500/1500 rounds")

    def make(self, spec: SetSpec) -> InstanceSet:
        return InstanceSet(spec, {"coords": uniform_points(spec)})

    def compute_reference(self, instances: InstanceSet, index: int) -> float:
        coords, size = instances.arrays["coords"][index], instances.spec.size
        return min(references.solve_routing(coords, reference_seconds(size)),
                   references.gls_tour_length(coords, reference_rounds(size)))

    def objectives(self, instances: InstanceSet, solutions: list[Any]) -> np.ndarray:
        check_lengths(instances, solutions)
        coords = instances.arrays["coords"]
        return np.array([tour_length(xy, check_permutation(tour, len(xy))) for xy, tour in zip(coords, solutions)])


class TspConstructive(TspUniform):
    name = "tsp_construct"
    function_name = "select_next_node"
    signature = ("def select_next_node(current_node: int, destination_node: int, unvisited_nodes: np.ndarray, "
                 "distance_matrix: np.ndarray) -> int")
    description = (
        "Travelling salesman, step-by-step construction: starting from node 0, `select_next_node` is "
        "called with the current node, the destination (start) node, the array of unvisited node ids and "
        "the full distance matrix, and returns the next node to visit (one of unvisited_nodes). Goal: the "
        "shortest closed tour. Points are uniform in the unit square."
    )
    baselines = {"nearest_neighbour": NEAREST_NEIGHBOUR}

    def set_specs(self, split: str) -> list[SetSpec]:
        if split == "train":
            return [SetSpec("train", 50, 32, seed=301)]
        return [SetSpec("test", n, count, seed=400 + n) for n, count in TEST_SETS]
