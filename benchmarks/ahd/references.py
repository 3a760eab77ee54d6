"""Reference objectives for the routing and knapsack problems, cached in ``data/references.json``.

TSP and CVRP references are OR-Tools routing solutions (path-cheapest-arc start, guided local search
metaheuristic, a fixed time limit per instance, distances scaled by 1e6 and rounded for the solver,
lengths re-measured in floating point). For the TSP each instance keeps the shorter of that tour and
a long run (hundreds to 1500 rounds) of this suite's own 2-opt guided local search, which beat
OR-Tools' short runs on this busy machine. Knapsack references are exact optima from scipy's MILP
solver (HiGHS). Regenerate with ``python -m benchmarks.ahd.references [problem ...]`` (needs
``pip install ortools``); ``--improve`` recomputes stored entries and keeps the better value.
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
    _stored.cache_clear()  # merge into the file as it is now, not as it was when this process read it
    data = dict(_stored())
    data[key] = {"method": method, "values": [round(float(v), 6) for v in values]}
    REFERENCE_FILE.parent.mkdir(parents=True, exist_ok=True)
    partial = REFERENCE_FILE.with_suffix(".json.partial")
    partial.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    partial.replace(REFERENCE_FILE)  # readers never see a half-written file
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
    routing.SetArcCostEvaluatorOfAllVehicles(routing.RegisterTransitMatrix(scaled.tolist()))
    if demands is not None:
        demand = routing.RegisterUnaryTransitVector([int(d) for d in demands])
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


def gls_tour_length(coords: np.ndarray, rounds: int) -> float:
    """Length of the suite's own 2-opt guided local search (classic distance penalties) after ``rounds``."""
    runners = str(Path(__file__).parent / "runners")
    if runners not in sys.path:
        sys.path.insert(0, runners)
    import tsp_gls  # the sandbox-side module, run here on trusted code

    from ahd_common import distance_matrix

    distances = distance_matrix(coords)
    tour = tsp_gls.guided_local_search(lambda d: np.array(d), distances, rounds)
    return tsp_gls.tour_length(np.asarray(tour), distances)


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

    improve = "--improve" in argv
    names = [a for a in argv if a != "--improve"] or [n for n, p in PROBLEMS.items() if hasattr(p, "family")]
    for name in names:
        problem = PROBLEMS[name]
        for split in ("train", "test"):
            for spec in problem.set_specs(split):
                problem.ensure_reference(problem.make(spec), log=print, improve=improve)


if __name__ == "__main__":
    main(sys.argv[1:])
