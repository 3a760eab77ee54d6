"""Constructive 0/1 knapsack: ``select_next_item`` repeatedly picks one of the items that still fit.

Weights and values are uniform in [0, 1]; capacity 12.5 for 50 items and 25 for larger instances
(the POMO / ReEvo setting). Gap: mean per-instance shortfall from the exact optimum (scipy MILP).
Training: 32 instances of 50 items. Test: 50, 100 and 200 items (64 each) and 500 items (16).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from benchmarks.ahd import references
from benchmarks.ahd.problem import IllegalSolution, InstanceSet, SetSpec, check_lengths
from benchmarks.ahd.problems.cached import CachedReference

GREEDY_RATIO = '''import numpy as np


def select_next_item(remaining_capacity: float, weights: np.ndarray, values: np.ndarray) -> int:
    """Greedy: the item with the highest value per unit of weight."""
    return int(np.argmax(values / weights))
'''

TEST_SETS = ((50, 64), (100, 64), (200, 64), (500, 16))


def capacity_for(size: int) -> float:
    return 12.5 if size <= 50 else 25.0


class KnapsackConstructive(CachedReference):
    name = "kp_construct"
    function_name = "select_next_item"
    signature = "def select_next_item(remaining_capacity: float, weights: np.ndarray, values: np.ndarray) -> int"
    description = (
        "0/1 knapsack, step-by-step construction: `select_next_item` receives the remaining capacity and "
        "the weights and values of the items not yet taken that still fit, and returns the index (into "
        "those arrays) of the item to take next; construction stops when nothing fits. Goal: the largest "
        "total value. Weights and values are uniform in [0, 1]."
    )
    minimize = False
    baselines = {"greedy_ratio": GREEDY_RATIO}
    family = "kp_uniform"
    reference_method = "exact optimum, scipy.optimize.milp (HiGHS)"

    def set_specs(self, split: str) -> list[SetSpec]:
        if split == "train":
            return [SetSpec("train", 50, 32, seed=501)]
        return [SetSpec("test", n, count, seed=600 + n) for n, count in TEST_SETS]

    def make(self, spec: SetSpec) -> InstanceSet:
        rng = np.random.default_rng(spec.seed)
        weights, values = rng.random((2, spec.count, spec.size)) + 1e-6
        capacity = np.full(spec.count, capacity_for(spec.size))
        return InstanceSet(spec, {"weights": weights, "values": values, "capacity": capacity})

    def compute_reference(self, instances: InstanceSet, index: int) -> float:
        arrays = instances.arrays
        return references.knapsack_optimum(arrays["weights"][index], arrays["values"][index],
                                           float(arrays["capacity"][index]))

    def objectives(self, instances: InstanceSet, solutions: list[Any]) -> np.ndarray:
        check_lengths(instances, solutions)
        arrays = instances.arrays
        return np.array([_value(arrays["weights"][i], arrays["values"][i], arrays["capacity"][i], chosen)
                         for i, chosen in enumerate(solutions)])


def _value(weights: np.ndarray, values: np.ndarray, capacity: float, chosen: Any) -> float:
    items = np.asarray(chosen, dtype=np.int64).reshape(-1)
    if len(np.unique(items)) != len(items) or (items < 0).any() or (items >= len(weights)).any():
        raise IllegalSolution("an item is taken twice or does not exist")
    if weights[items].sum() > capacity + 1e-9:
        raise IllegalSolution(f"knapsack holds {weights[items].sum():.4f} > capacity {capacity:g}")
    return float(values[items].sum())
