"""Sandbox-side guided local search for TSP, guided by the heuristic's edge badness matrix.

Nearest-neighbour start, best-improvement 2-opt (vectorised), then ``iterations`` rounds of guided
local search: penalise the tour edge with the highest badness / (1 + penalty) and run 2-opt again on
distance + lambda * penalty. The shortest real tour seen is returned.
"""

import numpy as np

from ahd_common import InvalidReturn, distance_matrix

ALPHA = 0.1


def solve_all(heuristics, data, iterations=40):
    return [guided_local_search(heuristics, distance_matrix(coords), iterations) for coords in data["coords"]]


def guided_local_search(heuristics, distances, iterations):
    n = len(distances)
    badness = _badness(heuristics(distances), n)
    tour = two_opt(nearest_neighbour(distances), distances)
    best, best_length = tour, tour_length(tour, distances)
    penalty = np.zeros((n, n))
    weight = ALPHA * best_length / n
    for _ in range(iterations):
        a, b = tour, np.roll(tour, -1)
        utility = badness[a, b] / (1.0 + penalty[a, b])
        worst = int(np.argmax(utility))
        penalty[a[worst], b[worst]] += 1.0
        penalty[b[worst], a[worst]] += 1.0
        tour = two_opt(tour, distances + weight * penalty)
        length = tour_length(tour, distances)
        if length < best_length - 1e-12:
            best, best_length = tour, length
    return best.tolist()


def _badness(raw, n):
    try:
        badness = np.asarray(raw, dtype=float)
    except (TypeError, ValueError) as error:
        raise InvalidReturn(f"heuristics returned {type(raw).__name__}, not a matrix") from error
    if badness.shape != (n, n):
        raise InvalidReturn(f"heuristics returned shape {badness.shape}, expected ({n}, {n})")
    if not np.isfinite(badness).all():
        raise InvalidReturn("heuristics returned NaN or infinite badness")
    return badness


def nearest_neighbour(distances):
    n = len(distances)
    unvisited = np.ones(n, dtype=bool)
    tour = [0]
    unvisited[0] = False
    for _ in range(n - 1):
        row = np.where(unvisited, distances[tour[-1]], np.inf)
        tour.append(int(np.argmin(row)))
        unvisited[tour[-1]] = False
    return np.array(tour)


def two_opt(tour, costs):
    """Best-improvement 2-opt on ``costs`` until no move improves."""
    tour = tour.copy()
    while True:
        following = np.roll(tour, -1)
        pairs = costs[tour][:, tour]
        after = costs[following][:, following]
        edges = costs[tour, following]
        delta = np.triu(pairs + after - edges[:, None] - edges[None, :], k=2)
        i, j = np.unravel_index(int(np.argmin(delta)), delta.shape)
        if delta[i, j] > -1e-10:
            return tour
        tour[i + 1 : j + 1] = tour[i + 1 : j + 1][::-1]


def tour_length(tour, distances):
    return float(distances[tour, np.roll(tour, -1)].sum())
