"""Alignment pairs: a graph and a noisy, permuted copy of it."""

from __future__ import annotations

from dataclasses import dataclass

import networkx as nx
import numpy as np


@dataclass
class AlignmentPair:
    """``target[i]`` is the node of the copy that corresponds to node i of the source."""

    source: np.ndarray  # (n, n) adjacency, 0/1 float
    copy: np.ndarray    # (n, n) adjacency of the noisy permuted copy
    target: np.ndarray  # (n,) ground-truth correspondence


def erdos_renyi(n: int, degree: float, rng: np.random.Generator) -> np.ndarray:
    """Adjacency of an Erdős–Rényi graph with the given expected degree."""
    graph = nx.gnp_random_graph(n, degree / (n - 1), seed=int(rng.integers(2**31)))
    return nx.to_numpy_array(graph, dtype=np.float32)


def real_graph(name: str) -> np.ndarray:
    """A small real graph that ships with networkx: karate, les_miserables, florentine, davis."""
    graphs = {"karate": nx.karate_club_graph, "les_miserables": nx.les_miserables_graph,
              "florentine": nx.florentine_families_graph, "davis": nx.davis_southern_women_graph}
    if name not in graphs:
        raise ValueError(f"unknown real graph {name!r}; choose from {sorted(graphs)}")
    graph = nx.convert_node_labels_to_integers(graphs[name]())
    adjacency = nx.to_numpy_array(graph, dtype=np.float32)
    return (adjacency > 0).astype(np.float32)


def noisy_copy(adjacency: np.ndarray, noise: float, rng: np.random.Generator) -> AlignmentPair:
    """Remove a ``noise`` fraction of edges, add as many non-edges, then permute the nodes."""
    n = len(adjacency)
    upper = np.triu_indices(n, 1)
    edges = adjacency[upper] > 0
    flips = int(round(noise * edges.sum()))
    perturbed = edges.copy()
    if flips:
        perturbed[rng.choice(np.flatnonzero(edges), flips, replace=False)] = False
        perturbed[rng.choice(np.flatnonzero(~edges), flips, replace=False)] = True
    noisy = np.zeros_like(adjacency)
    noisy[upper] = perturbed
    noisy = noisy + noisy.T
    permutation = rng.permutation(n)  # copy node permutation[i] is source node i
    copy = np.empty_like(noisy)
    copy[np.ix_(permutation, permutation)] = noisy
    return AlignmentPair(adjacency, copy, permutation)


def make_pairs(count: int, *, n: int = 100, degree: float = 8.0, noise: float = 0.04, seed: int = 0,
               graph: str = "er") -> list[AlignmentPair]:
    """``count`` seeded pairs, each from a fresh ER graph (or the named real graph)."""
    rng = np.random.default_rng(seed)
    base = None if graph == "er" else real_graph(graph)
    return [noisy_copy(erdos_renyi(n, degree, rng) if base is None else base, noise, rng) for _ in range(count)]
