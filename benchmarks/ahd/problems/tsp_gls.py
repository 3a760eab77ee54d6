"""TSP guided local search: the heuristic returns an edge-badness matrix that steers GLS penalties.

Same uniform instances and OR-Tools references as the constructive TSP. The local search (2-opt from
a nearest-neighbour tour, then 40 GLS rounds) runs in the sandbox. Training: 16 instances of 50
nodes. Test: 16 each of 50, 100 and 200 nodes, and 4 of 500.
"""

from __future__ import annotations

from typing import Any

from benchmarks.ahd.problem import SetSpec
from benchmarks.ahd.problems.tsp_construct import TspUniform

DISTANCE_AS_BADNESS = '''import numpy as np


def heuristics(distance_matrix: np.ndarray) -> np.ndarray:
    """Classic GLS: an edge is as bad as it is long."""
    return np.array(distance_matrix, dtype=float)
'''

TEST_SETS = ((50, 16), (100, 16), (200, 16), (500, 4))
GLS_ROUNDS = 40


class TspGuidedLocalSearch(TspUniform):
    name = "tsp_gls"
    function_name = "heuristics"
    signature = "def heuristics(distance_matrix: np.ndarray) -> np.ndarray"
    description = (
        "Travelling salesman with guided local search: `heuristics(distance_matrix)` returns an n x n "
        "matrix saying how bad it is to keep each edge in a tour. A 2-opt local search then repeatedly "
        "penalises the tour edge with the highest badness / (1 + penalty) and re-optimises, escaping "
        "local optima. Goal: the shortest tour after the search. Points are uniform in the unit square."
    )
    baselines = {"gls_distance": DISTANCE_AS_BADNESS}

    def set_specs(self, split: str) -> list[SetSpec]:
        if split == "train":
            return [SetSpec("train", 50, 16, seed=301)]
        return [SetSpec("test", n, count, seed=400 + n) for n, count in TEST_SETS]

    def runner_options(self, spec: SetSpec) -> dict[str, Any]:
        return {"iterations": GLS_ROUNDS}
