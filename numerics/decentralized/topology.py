"""Communication graphs and their doubly stochastic Metropolis mixing matrices."""

from __future__ import annotations

import networkx as nx
import numpy as np


def make_graph(kind: str, n: int, *, seed: int = 0, p: float = 0.3) -> nx.Graph:
    """A connected graph: ``ring``, ``grid`` (as square as n allows), ``er`` (Erdős–Rényi, edge probability p)."""
    if kind == "ring":
        return nx.cycle_graph(n)
    if kind == "grid":
        rows = int(np.floor(np.sqrt(n)))
        while n % rows:
            rows -= 1
        return nx.convert_node_labels_to_integers(nx.grid_2d_graph(rows, n // rows))
    if kind == "er":
        rng = np.random.default_rng(seed)
        for _ in range(1000):
            graph = nx.erdos_renyi_graph(n, p, seed=int(rng.integers(2**31)))
            if nx.is_connected(graph):
                return graph
        raise ValueError(f"no connected Erdős–Rényi graph with n={n}, p={p}")
    raise ValueError(f"unknown graph kind {kind!r}; use ring, grid or er")


def metropolis_weights(graph: nx.Graph) -> np.ndarray:
    """W_ij = 1 / (1 + max(deg_i, deg_j)) on edges, the rest on the diagonal: symmetric, doubly stochastic."""
    n = graph.number_of_nodes()
    weights = np.zeros((n, n))
    for i, j in graph.edges():
        weights[i, j] = weights[j, i] = 1.0 / (1 + max(graph.degree(i), graph.degree(j)))
    weights[np.diag_indices(n)] = 1.0 - weights.sum(axis=1)
    return weights


def spectral_gap(weights: np.ndarray) -> float:
    """1 − (second largest eigenvalue modulus) of a symmetric mixing matrix."""
    moduli = np.sort(np.abs(np.linalg.eigvalsh(weights)))[::-1]
    return float(1.0 - moduli[1])
