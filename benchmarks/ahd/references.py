"""Reference objectives for the routing and knapsack problems, cached in ``data/references.json``.

TSP and CVRP references are OR-Tools routing solutions (path-cheapest-arc start, guided local search
metaheuristic, a fixed time limit per instance, distances scaled by 1e6 and rounded for the solver,
lengths re-measured in floating point). Knapsack references are exact optima from scipy's MILP solver
(HiGHS). Regenerate with ``python -m benchmarks.ahd.references`` (needs ``pip install ortools``).
"""

from __future__ import annotations

import json
import sys
from functools import lru_cache
from pathlib import Path

import numpy as np

from sandboxes.errors import UserError

REFERENCE_FILE = Path(__file__).parent / "data" / "references.json"
SCALE = 1_000_000


@lru_cache(maxsize=1)
def _stored() -> dict:
    if not REFERENCE_FILE.exists():
        return {}
    return json.loads(REFERENCE_FILE.read_text())


def lookup(key: str, count: int) -> np.ndarray:
    """The first ``count`` cached reference objectives stored under ``key``."""
    entry = _stored().get(key)
    if entry is None or len(entry["values"]) < count:
        raise UserError(f"no cached reference for {key}; run `python -m benchmarks.ahd.references`")
    return np.asarray(entry["values"][:count], dtype=float)


def store(key: str, values: list[float], method: str) -> None:
    data = dict(_stored())
    data[key] = {"method": method, "values": [round(float(v), 6) for v in values]}
    REFERENCE_FILE.parent.mkdir(parents=True, exist_ok=True)
    REFERENCE_FILE.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    _stored.cache_clear()


def solve_routing(coords: np.ndarray, seconds: float, demands: np.ndarray | None = None,
                  capacity: float | None = None) -> float:
    """OR-Tools guided-local-search length for a TSP (no demands) or CVRP (node 0 is the depot)."""
    try:
        from ortools.constraint_solver import pywrapcp, routing_enums_pb2
    except ImportError as error:
        raise UserError("computing references needs OR-Tools: pip install ortools") from error
    distances = np.sqrt(((coords[:, None] - coords[None]) ** 2).sum(-1))
    scaled = np.round(distances * SCALE).astype(np.int64)
    n = len(coords)
    vehicles = n if demands is not None else 1
    manager = pywrapcp.RoutingIndexManager(n, vehicles, 0)
    routing = pywrapcp.RoutingModel(manager)
    transit = routing.RegisterTransitCallback(
        lambda i, j: int(scaled[manager.IndexToNode(i), manager.IndexToNode(j)]))
    routing.SetArcCostEvaluatorOfAllVehicles(transit)
    if demands is not None:
        demand = routing.RegisterUnaryTransitCallback(lambda i: int(demands[manager.IndexToNode(i)]))
        routing.AddDimensionWithVehicleCapacity(demand, 0, [int(capacity)] * vehicles, True, "load")
    params = pywrapcp.DefaultRoutingSearchParameters()
    params.first_solution_strategy = routing_enums_pb2.FirstSolutionStrategy.PATH_CHEAPEST_ARC
    params.local_search_metaheuristic = routing_enums_pb2.LocalSearchMetaheuristic.GUIDED_LOCAL_SEARCH
    params.time_limit.FromMilliseconds(int(seconds * 1000))
    solution = routing.SolveWithParameters(params)
    return _measured_length(routing, manager, solution, distances, vehicles)


def _measured_length(routing, manager, solution, distances, vehicles) -> float:
    total = 0.0
    for vehicle in range(vehicles):
        index = routing.Start(vehicle)
        while not routing.IsEnd(index):
            following = solution.Value(routing.NextVar(index))
            total += distances[manager.IndexToNode(index), manager.IndexToNode(following)]
            index = following
    return float(total)


def knapsack_optimum(weights: np.ndarray, values: np.ndarray, capacity: float) -> float:
    """Exact 0/1 knapsack optimum via scipy's MILP (HiGHS)."""
    from scipy.optimize import Bounds, LinearConstraint, milp

    result = milp(-values, constraints=LinearConstraint(weights[None, :], 0, capacity),
                  integrality=np.ones_like(values), bounds=Bounds(0, 1))
    if not result.success:
        raise RuntimeError(f"MILP failed: {result.message}")
    return float(values @ np.round(result.x))


def main(argv: list[str]) -> None:
    """Compute every missing reference of the named problems (default: all that need one)."""
    from benchmarks.ahd.registry import PROBLEMS

    names = argv or [name for name, problem in PROBLEMS.items() if hasattr(problem, "compute_reference")]
    for name in names:
        problem = PROBLEMS[name]
        for split in ("train", "test"):
            for spec in problem.set_specs(split):
                problem.ensure_reference(problem.make(spec), log=print)


if __name__ == "__main__":
    main(sys.argv[1:])
