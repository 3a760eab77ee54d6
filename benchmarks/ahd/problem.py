"""The shape every automated-heuristic-design problem shares: instance sets, a signature, scoring.

A problem knows how to generate its seeded instance sets, what the heuristic's signature is (as the
literature states it), which classic baselines exist, which reference objective a gap is measured
against, and how to verify a solution returned from the sandbox. Verification happens here, outside
the sandbox, so a candidate cannot fake its own score.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

RUNNERS_DIR = Path(__file__).parent / "runners"


class IllegalSolution(ValueError):
    """A solution that breaks the problem's rules (overfull bin, revisited node, overweight knapsack)."""


@dataclass(frozen=True)
class SetSpec:
    """One seeded instance set: ``split`` is train or test, ``size`` the instance size."""

    split: str
    size: int
    count: int
    seed: int
    capacity: int | None = None

    @property
    def name(self) -> str:
        suffix = f"_c{self.capacity}" if self.capacity is not None else ""
        return f"{self.split}_n{self.size}{suffix}"


@dataclass
class InstanceSet:
    """The arrays of one instance set, as shipped to the sandbox (``data.npz``)."""

    spec: SetSpec
    arrays: dict[str, np.ndarray] = field(default_factory=dict)

    @property
    def count(self) -> int:
        return self.spec.count

    def to_npz(self) -> bytes:
        import io

        buffer = io.BytesIO()
        np.savez(buffer, **self.arrays)
        return buffer.getvalue()


class Problem(ABC):
    """An AHD problem with the signature the literature uses."""

    name: str
    function_name: str
    signature: str
    description: str
    minimize: bool = True
    baselines: dict[str, str]
    """Classic baseline heuristics: name -> source code with the problem's signature."""

    @abstractmethod
    def set_specs(self, split: str) -> list[SetSpec]:
        """The seeded instance sets of ``split`` (``train`` or ``test``)."""

    @abstractmethod
    def make(self, spec: SetSpec) -> InstanceSet:
        """Generate the instances of ``spec`` deterministically from its seed."""

    @abstractmethod
    def reference(self, instances: InstanceSet) -> np.ndarray:
        """Per-instance reference objective (lower bound, optimum or strong reference tour)."""

    @abstractmethod
    def objectives(self, instances: InstanceSet, solutions: list[Any]) -> np.ndarray:
        """Verify ``solutions`` (one per instance) and return their objective values."""

    def instance_gaps(self, instances: InstanceSet, objectives: np.ndarray) -> np.ndarray:
        """Per-instance gaps to the reference, in percent (lower is better)."""
        reference = self.reference(instances)
        gaps = (objectives - reference) / reference if self.minimize else (reference - objectives) / reference
        return gaps * 100.0

    def gap_percent(self, instances: InstanceSet, objectives: np.ndarray) -> float:
        """The set's gap: the mean per-instance gap."""
        return float(np.mean(self.instance_gaps(instances, objectives)))

    def gap_standard_error(self, instances: InstanceSet, objectives: np.ndarray) -> float:
        """Standard error of the set's gap from the spread of per-instance gaps (sampling noise)."""
        gaps = self.instance_gaps(instances, objectives)
        return float(np.std(gaps, ddof=1) / np.sqrt(len(gaps))) if len(gaps) > 1 else 0.0

    @property
    def seed_code(self) -> str:
        """The heuristic a search starts from: the first classic baseline."""
        return next(iter(self.baselines.values()))

    def runner_source(self) -> str:
        """The sandbox-side code that calls the heuristic on every instance of a set."""
        return (RUNNERS_DIR / f"{self.name}.py").read_text()

    def runner_options(self, spec: SetSpec) -> dict[str, Any]:
        """Keyword options passed to the sandbox-side ``solve_all`` for ``spec``."""
        return {}

    def sets(self, split: str) -> list[InstanceSet]:
        return [self.make(spec) for spec in self.set_specs(split)]

    def row_fields(self, spec: SetSpec) -> dict[str, Any]:
        """The columns a result row carries for this set (size, and capacity where it matters)."""
        return {"size": spec.size}


def check_lengths(instances: InstanceSet, solutions: list[Any]) -> None:
    if not isinstance(solutions, list) or len(solutions) != instances.count:
        raise IllegalSolution(f"expected {instances.count} solutions, got {type(solutions).__name__}")


def tour_length(coords: np.ndarray, tour: np.ndarray) -> float:
    """Length of the closed tour ``tour`` over ``coords``."""
    ordered = coords[tour]
    return float(np.linalg.norm(ordered - np.roll(ordered, -1, axis=0), axis=1).sum())


def check_permutation(tour: Any, n: int) -> np.ndarray:
    """The tour as an int array if it visits each of ``n`` nodes exactly once, else IllegalSolution."""
    array = np.asarray(tour)
    if array.shape != (n,) or not np.issubdtype(array.dtype, np.integer):
        raise IllegalSolution(f"tour must list {n} node ids")
    if np.any(np.sort(array) != np.arange(n)):
        raise IllegalSolution("tour revisits a node or misses one")
    return array.astype(np.int64)
