"""Tool: run a Byzantine-robust decentralised optimisation experiment and compare methods."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from numerics.decentralized.algorithms import ALGORITHMS, Hyper, run
from numerics.decentralized.network import Network
from numerics.decentralized.problems import heterogeneous_problem
from numerics.decentralized.topology import make_graph, metropolis_weights, spectral_gap
from tools.base import Tool


class DecentralizedArgs(BaseModel):
    """A decentralised least-squares or logistic-regression experiment."""

    problem: Literal["lsq", "logistic"] = "lsq"
    graph: Literal["ring", "grid", "er"] = "er"
    nodes: int = Field(20, ge=3, le=200)
    byzantine: int = Field(0, ge=0, description="Number of Byzantine nodes (the lowest-numbered ones).")
    attack: Literal["sign_flip", "alie", "gaussian"] = "sign_flip"
    aggregator: Literal["mean", "trimmed", "clipped"] = "trimmed"
    methods: list[str] = Field(default_factory=lambda: list(ALGORITHMS))
    iterations: int = Field(500, ge=1, le=20_000)
    step: float = Field(0.05, gt=0)
    seed: int = 0


def decentralized_optimize(args: DecentralizedArgs) -> dict:
    """Final mean squared distance to the honest optimum for each method, plus the graph's spectral gap."""
    unknown = sorted(set(args.methods) - set(ALGORITHMS))
    if unknown:
        raise ValueError(f"unknown methods {unknown}; choose from {list(ALGORITHMS)}")
    graph = make_graph(args.graph, args.nodes, seed=args.seed, p=0.4)
    network = Network(graph, byzantine=frozenset(range(args.byzantine)), attack=args.attack,
                      aggregator=args.aggregator, seed=args.seed)
    problem = heterogeneous_problem(args.problem, args.nodes, seed=args.seed)
    errors = {m: float(run(m, problem, network, iterations=args.iterations, hyper=Hyper(step=args.step))[-1])
              for m in args.methods}
    return {"spectral_gap": spectral_gap(metropolis_weights(graph)), "trim": network.trim, "final_error": errors}


DECENTRALIZED_TOOL = Tool("decentralized_optimize", decentralized_optimize.__doc__ or "", DecentralizedArgs,
                          decentralized_optimize, group="numerics", capabilities=("compute",))
