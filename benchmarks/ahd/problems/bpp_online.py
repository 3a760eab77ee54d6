"""Online bin packing on Weibull instances (FunSearch / EoH protocol).

Items are Weibull(shape 3, scale 45) samples rounded and clipped to [1, 100]; at capacity 500 they are
scaled by 5 (the same item-to-capacity ratios in multiples of 5). That is the reading of EoH's C500
protocol the published baseline gaps support: unscaled items (~12 per bin) give gaps near 0.5 %, and
items rounded at the finer 1/500 resolution give first fit 4.66 % / best fit 4.38 % on 5k, about four
standard errors above EoH's 4.27 % / 3.91 %, while scaled items agree within sampling noise. The
score is the excess of bins over the L1 bound ceil(sum / capacity), in percent of the mean bound over
the set, as EoH and FunSearch report it. Training: 5 instances of 5k items at capacity 100. Test: 1k, 5k and
10k items at capacity 100 and 500, 5 instances each.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from benchmarks.ahd.problem import IllegalSolution, InstanceSet, Problem, SetSpec, check_lengths

WEIBULL_SHAPE = 3.0
WEIBULL_SCALE = 45.0
BASE_CAPACITY = 100

FIRST_FIT = '''import numpy as np


def priority(item: float, bins_remain_cap: np.ndarray) -> np.ndarray:
    """First fit: the lowest-indexed bin that fits gets the highest priority."""
    return -np.arange(len(bins_remain_cap), dtype=float)
'''

BEST_FIT = '''import numpy as np


def priority(item: float, bins_remain_cap: np.ndarray) -> np.ndarray:
    """Best fit: the bin left with the least space after the item gets the highest priority."""
    return -(bins_remain_cap - item)
'''


def weibull_items(rng: np.random.Generator, count: int, n_items: int, capacity: int) -> np.ndarray:
    """``count`` instances of ``n_items`` Weibull items, rounded and clipped to [1, 100], scaled to ``capacity``."""
    samples = rng.weibull(WEIBULL_SHAPE, size=(count, n_items)) * WEIBULL_SCALE
    return (np.clip(np.round(samples), 1, BASE_CAPACITY) * (capacity // BASE_CAPACITY)).astype(np.int64)


def l1_bound(items: np.ndarray, capacity: float) -> np.ndarray:
    """ceil(sum of items / capacity) per instance (rows of ``items``)."""
    return np.ceil(items.sum(axis=-1) / capacity)


class BinPackingOnline(Problem):
    name = "bpp_online"
    function_name = "priority"
    signature = "def priority(item: float, bins_remain_cap: np.ndarray) -> np.ndarray"
    description = (
        "Online bin packing: items arrive one at a time and each must go into a bin at once. "
        "`priority(item, bins_remain_cap)` receives the item size and the remaining capacities of the "
        "bins the item fits into (opened bins, plus one empty bin standing for a new one) and returns "
        "one score per bin; the item goes into the bin with the highest score. Goal: use as few bins "
        "as possible. Weibull(3, 45) item sizes; bin capacity 100 (also tested at 500)."
    )
    baselines = {"first_fit": FIRST_FIT, "best_fit": BEST_FIT}

    def set_specs(self, split: str) -> list[SetSpec]:
        if split == "train":
            return [SetSpec("train", 5000, 5, seed=101, capacity=100)]
        return [SetSpec("test", n, 5, seed=200 + i, capacity=c)
                for i, (n, c) in enumerate((n, c) for c in (100, 500) for n in (1000, 5000, 10000))]

    def make(self, spec: SetSpec) -> InstanceSet:
        rng = np.random.default_rng(spec.seed)
        items = weibull_items(rng, spec.count, spec.size, spec.capacity)
        return InstanceSet(spec, {"items": items, "capacity": np.array(spec.capacity)})

    def reference(self, instances: InstanceSet) -> np.ndarray:
        return l1_bound(instances.arrays["items"], float(instances.spec.capacity))

    def objectives(self, instances: InstanceSet, solutions: list[Any]) -> np.ndarray:
        check_lengths(instances, solutions)
        return np.array([_bins_used(items, solution, instances.spec.capacity)
                         for items, solution in zip(instances.arrays["items"], solutions)], dtype=float)

    def gap_percent(self, instances: InstanceSet, objectives: np.ndarray) -> float:
        bound = self.reference(instances).mean()
        return float((objectives.mean() - bound) / bound * 100.0)

    def row_fields(self, spec: SetSpec) -> dict[str, Any]:
        return {"size": spec.size, "capacity": spec.capacity}


def _bins_used(items: np.ndarray, assignment: Any, capacity: int) -> int:
    bins = np.asarray(assignment)
    if bins.shape != items.shape or not np.issubdtype(bins.dtype, np.integer) or (bins < 0).any():
        raise IllegalSolution("bin assignment must give one bin id per item")
    loads = np.bincount(bins, weights=items)
    if loads.max() > capacity + 1e-9:
        raise IllegalSolution(f"a bin holds {loads.max():g} > capacity {capacity}")
    return int(np.count_nonzero(loads))
