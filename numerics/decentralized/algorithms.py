"""DSGD, Exact Diffusion, BRED and BRED-M, each as one update over all nodes.

BRED is a primal-dual (augmented-Lagrangian) form of exact diffusion: a local descent step on
f_i + y_i, a robust lazy gossip step, then a scaled dual ascent on the node's own consensus
residual. With linear gossip the dual variables sum to zero, so the fixed point is the exact
optimum; BRED-M adds heavy-ball momentum to the primal step.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from numerics.decentralized.network import Network
from numerics.decentralized.problems import LocalProblem

ALGORITHMS = ("dsgd", "ed", "bred", "bred-m")


@dataclass
class Hyper:
    """Step sizes shared by the methods."""

    step: float = 0.05
    dual_scale: float = 0.1
    momentum: float = 0.3


def run(algorithm: str, problem: LocalProblem, network: Network, *, iterations: int = 500,
        hyper: Hyper | None = None) -> np.ndarray:
    """Run ``algorithm``; return the mean squared distance of honest nodes to the honest optimum per iteration."""
    if algorithm not in ALGORITHMS:
        raise ValueError(f"unknown algorithm {algorithm!r}; use one of {', '.join(ALGORITHMS)}")
    hyper = hyper or Hyper()
    target = problem.optimum(network.honest)
    nodes = problem.features.shape[0]
    x = np.zeros((nodes, problem.dim))
    dual, velocity, previous = np.zeros_like(x), np.zeros_like(x), x.copy()
    errors = np.empty(iterations)
    for k in range(iterations):
        gradients = problem.gradients(x)
        if algorithm == "dsgd":
            x = network.gossip(x - hyper.step * gradients)
        elif algorithm == "ed":
            psi = x - hyper.step * gradients
            x, previous = _lazy(network, psi + x - previous), psi
        else:
            direction = gradients + dual
            if algorithm == "bred-m":
                velocity = hyper.momentum * velocity + direction
                direction = velocity
            z = x - hyper.step * direction
            x = _lazy(network, z)
            dual = dual + (hyper.dual_scale / hyper.step) * (z - x)
        errors[k] = np.mean(np.sum((x[network.honest] - target) ** 2, axis=1))
    return errors


def _lazy(network: Network, messages: np.ndarray) -> np.ndarray:
    """The lazy mixing (I + W) / 2 that exact diffusion needs, with the robust aggregator inside."""
    return 0.5 * (messages + network.gossip(messages))
