"""Problems whose reference objective is computed once (OR-Tools, MILP) and cached in data/."""

from __future__ import annotations

from typing import Callable

import numpy as np

from benchmarks.ahd import references
from benchmarks.ahd.problem import InstanceSet, Problem


class CachedReference(Problem):
    """Looks references up in ``data/references.json``; ``compute_reference`` fills missing ones."""

    family: str
    """Instance family; problems that share instances (TSP construct and GLS) share references."""
    reference_method: str

    def reference_key(self, instances: InstanceSet) -> str:
        spec = instances.spec
        return f"{self.family}/{spec.split}_n{spec.size}_seed{spec.seed}"

    def reference(self, instances: InstanceSet) -> np.ndarray:
        return references.lookup(self.reference_key(instances), instances.count)

    def compute_reference(self, instances: InstanceSet, index: int) -> float:
        raise NotImplementedError

    def ensure_reference(self, instances: InstanceSet, log: Callable[[str], None] = lambda _: None,
                         improve: bool = False) -> None:
        """Compute missing references; with ``improve``, recompute and keep the better of old and new."""
        key = self.reference_key(instances)
        stored = (references._stored().get(key) or {}).get("values", [])
        if len(stored) >= instances.count and not improve:
            return
        values = []
        for index in range(instances.count):
            value = self.compute_reference(instances, index)
            if index < len(stored):
                value = min(value, stored[index]) if self.minimize else max(value, stored[index])
            values.append(value)
            log(f"{key} [{index + 1}/{instances.count}] {value:.6f}")
        references.store(key, values, self.reference_method)
