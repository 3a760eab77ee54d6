"""The paper's three checks as reproducible experiments, with plots.

1. No attackers: BRED converges linearly to the exact optimum; DSGD stalls at a heterogeneity floor.
2. Under attack: BRED ends with lower error than Exact Diffusion with the same robust aggregator.
3. Spectral gap: on ring lattices of shrinking degree, the heterogeneity floor of DSGD grows
   while BRED stays exact, and BRED's advantage under Gaussian attack grows.
"""

from __future__ import annotations

from pathlib import Path

import networkx as nx
import numpy as np

from numerics.decentralized.algorithms import ALGORITHMS, Hyper, run
from numerics.decentralized.network import Network
from numerics.decentralized.problems import heterogeneous_problem
from numerics.decentralized.topology import make_graph, metropolis_weights, spectral_gap
from numerics.plotting import saved_figure

ATTACKS = ("sign_flip", "alie", "gaussian")
STEP = {"lsq": 0.05, "logistic": 0.5}


def _final(errors: np.ndarray, tail: int = 100) -> float:
    return float(errors[-tail:].mean())


def no_attack(kind: str, *, nodes: int = 20, iterations: int = 1000, seed: int = 1) -> dict[str, np.ndarray]:
    """Error curves of every method on an Erdős–Rényi graph with linear gossip and no attackers."""
    problem = heterogeneous_problem(kind, nodes, seed=seed)
    network = Network(make_graph("er", nodes, p=0.4, seed=seed), aggregator="mean")
    return {name: run(name, problem, network, iterations=iterations, hyper=_hyper(kind)) for name in ALGORITHMS}


def under_attack(kind: str, *, nodes: int = 24, iterations: int = 600, seed: int = 1) -> list[dict]:
    """Final error of each method for every attack and robust aggregator (two Byzantine nodes)."""
    problem = heterogeneous_problem(kind, nodes, seed=seed)
    graph = nx.watts_strogatz_graph(nodes, 8, 0.0)
    rows = []
    for aggregator in ("trimmed", "clipped"):
        for attack in ATTACKS:
            network = Network(graph, byzantine=frozenset({0, nodes // 2}), aggregator=aggregator, attack=attack,
                              seed=seed)
            row = {"problem": kind, "aggregator": aggregator, "attack": attack}
            row.update({name: _final(run(name, problem, network, iterations=iterations, hyper=_hyper(kind)))
                        for name in ALGORITHMS})
            rows.append(row)
    return rows


def gap_sweep(kind: str = "lsq", *, nodes: int = 24, degrees: tuple[int, ...] = (10, 8, 6, 4),
              iterations: int = 600, seed: int = 1) -> list[dict]:
    """Per ring-lattice degree: the spectral gap, DSGD's floor without attack, and errors under Gaussian attack."""
    problem = heterogeneous_problem(kind, nodes, seed=seed)
    rows = []
    for degree in degrees:
        graph = nx.watts_strogatz_graph(nodes, degree, 0.0)
        clean = Network(graph, aggregator="mean")
        attacked = Network(graph, byzantine=frozenset({0, nodes // 2}), aggregator="clipped", attack="gaussian",
                           seed=seed)
        hyper = _hyper(kind)
        rows.append({
            "degree": degree,
            "spectral_gap": spectral_gap(metropolis_weights(graph)),
            "dsgd_floor": _final(run("dsgd", problem, clean, iterations=iterations, hyper=hyper)),
            "bred_clean": _final(run("bred", problem, clean, iterations=iterations, hyper=hyper)),
            "dsgd_attacked": _final(run("dsgd", problem, attacked, iterations=iterations, hyper=hyper)),
            "ed_attacked": _final(run("ed", problem, attacked, iterations=iterations, hyper=hyper)),
            "bred_attacked": _final(run("bred", problem, attacked, iterations=iterations, hyper=hyper)),
        })
    return rows


def _hyper(kind: str) -> Hyper:
    return Hyper(step=STEP[kind])


def plot_curves(curves: dict[str, np.ndarray], title: str, path: Path) -> Path:
    """Log-scale error against iteration, one line per method."""
    with saved_figure(path) as (_, axis):
        for name, errors in curves.items():
            axis.semilogy(np.maximum(errors, 1e-32), label=name)
        axis.set(xlabel="iteration", ylabel="mean ‖x_i − x*‖² (honest nodes)", title=title)
        axis.legend()
    return path


def plot_gap_sweep(rows: list[dict], path: Path) -> Path:
    """DSGD floor and attacked errors against the spectral gap."""
    gaps = [row["spectral_gap"] for row in rows]
    with saved_figure(path) as (_, axis):
        for key in ("dsgd_floor", "dsgd_attacked", "ed_attacked", "bred_attacked"):
            axis.loglog(gaps, [row[key] for row in rows], marker="o", label=key)
        axis.set(xlabel="spectral gap of W", ylabel="final error", title="Error against spectral gap")
        axis.legend()
    return path
