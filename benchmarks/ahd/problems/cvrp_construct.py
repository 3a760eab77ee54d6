"""Constructive CVRP: ``select_next_node`` picks the next customer, or the depot to end a route.

Depot and customers are uniform in the unit square; demands are integers 1..9; capacity 30, 40 and
50 for 20, 50 and 100+ customers (Kool et al.). Gap: mean per-instance excess over an OR-Tools
guided-local-search reference. Training: 16 instances of 50 customers. Test: 20, 50, 100 customers
(32 each) and 200 customers (16). References come from OR-Tools with short time limits on a busy
machine, so they are not optimal: read gaps as relative to a strong, not an exact, solution.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from benchmarks.ahd import references
from benchmarks.ahd.problem import IllegalSolution, InstanceSet, SetSpec, check_lengths
from benchmarks.ahd.problems.cached import CachedReference

NEAREST_FEASIBLE = '''import numpy as np


def select_next_node(current_node: int, depot: int, unvisited_nodes: np.ndarray, rest_capacity: float,
                     demands: np.ndarray, distance_matrix: np.ndarray) -> int:
    """Nearest feasible: the closest unvisited customer whose demand still fits, else the depot."""
    feasible = unvisited_nodes[demands[unvisited_nodes] <= rest_capacity]
    if len(feasible) == 0:
        return depot
    return int(feasible[np.argmin(distance_matrix[current_node, feasible])])
'''

TEST_SETS = ((20, 32), (50, 32), (100, 32), (200, 16))


def capacity_for(size: int) -> int:
    return 30 if size <= 20 else 40 if size <= 50 else 50


def reference_seconds(size: int) -> float:
    return 2.0 if size <= 20 else 5.0 if size <= 50 else 10.0 if size <= 100 else 20.0


class CvrpConstructive(CachedReference):
    name = "cvrp_construct"
    function_name = "select_next_node"
    signature = ("def select_next_node(current_node: int, depot: int, unvisited_nodes: np.ndarray, "
                 "rest_capacity: float, demands: np.ndarray, distance_matrix: np.ndarray) -> int")
    description = (
        "Capacitated vehicle routing, step-by-step construction: vehicles start full at the depot (node "
        "0). `select_next_node` receives the current node, the depot id, the unvisited customer ids, the "
        "vehicle's rest capacity, all demands and the distance matrix, and returns the next customer or "
        "the depot (to start a new route). A customer whose demand exceeds the rest capacity is illegal. "
        "Goal: the shortest total distance. Points are uniform in the unit square, demands 1..9."
    )
    baselines = {"nearest_feasible": NEAREST_FEASIBLE}
    family = "cvrp_uniform"
    reference_method = "best of OR-Tools GLS runs (path-cheapest-arc start, up to 2/5/10/20 s for n<=20/50/100/200)"

    def set_specs(self, split: str) -> list[SetSpec]:
        if split == "train":
            return [SetSpec("train", 50, 16, seed=701)]
        return [SetSpec("test", n, count, seed=800 + n) for n, count in TEST_SETS]

    def make(self, spec: SetSpec) -> InstanceSet:
        rng = np.random.default_rng(spec.seed)
        coords = rng.random((spec.count, spec.size + 1, 2))
        demands = rng.integers(1, 10, size=(spec.count, spec.size + 1)).astype(float)
        demands[:, 0] = 0.0
        capacity = np.full(spec.count, float(capacity_for(spec.size)))
        return InstanceSet(spec, {"coords": coords, "demands": demands, "capacity": capacity})

    def compute_reference(self, instances: InstanceSet, index: int) -> float:
        arrays = instances.arrays
        return references.solve_routing(arrays["coords"][index], reference_seconds(instances.spec.size),
                                        arrays["demands"][index], arrays["capacity"][index])

    def objectives(self, instances: InstanceSet, solutions: list[Any]) -> np.ndarray:
        check_lengths(instances, solutions)
        arrays = instances.arrays
        return np.array([_length(arrays["coords"][i], arrays["demands"][i], arrays["capacity"][i], route)
                         for i, route in enumerate(solutions)])


def _length(coords: np.ndarray, demands: np.ndarray, capacity: float, route: Any) -> float:
    nodes = np.asarray(route, dtype=np.int64).reshape(-1)
    customers = nodes[nodes != 0]
    if nodes[0] != 0 or nodes[-1] != 0 or np.any(np.sort(customers) != np.arange(1, len(coords))):
        raise IllegalSolution("route must start and end at the depot and visit every customer once")
    trip = np.cumsum(nodes == 0)
    loads = np.bincount(trip, weights=demands[nodes])
    if loads.max() > capacity + 1e-9:
        raise IllegalSolution(f"a vehicle carries {loads.max():g} > capacity {capacity:g}")
    steps = coords[nodes]
    return float(np.linalg.norm(np.diff(steps, axis=0), axis=1).sum())
