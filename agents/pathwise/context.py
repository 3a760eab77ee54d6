"""What every search method shares: config, evaluator, roles, the persisted graph and the budget.

Node ids are derived from the search position (round, step, action), so a node that reruns after a
kill replaces its earlier copy instead of adding a duplicate; evaluations are cached by code hash.
"""

from __future__ import annotations

import os
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from pydantic import PositiveFloat, PositiveInt

from agents.pathwise.prompts import Candidate
from benchmarks.ahd.evaluation import Evaluation
from benchmarks.ahd.evaluator import Evaluator, EvaluatorConfig
from benchmarks.ahd.registry import get_problem
from benchmarks.executor import make_executor
from memory.entailment.graph import EntailmentGraph, HeuristicNode
from memory.entailment.store import GraphStore
from sandboxes.settings import Config
from sandboxes.telemetry import emit

SEED_DIRECTIVE = "Write a new heuristic for this problem; you may build on the seed but try your own idea."


class PathWiseConfig(Config):
    """One PathWise (or baseline) run."""

    problem: str = "bpp_online"
    """AHD problem: bpp_online, tsp_construct, tsp_gls, kp_construct or cvrp_construct."""
    method: Literal["pathwise", "eoh", "random"] = "pathwise"
    """Search method: PathWise, the EoH-style evolution baseline, or random sampling from the seed prompt."""
    budget: PositiveInt = 500
    """Heuristic evaluations allowed for the whole run."""
    population: PositiveInt = 6
    """Population size kept between rounds."""
    initial_population: PositiveInt = 30
    """Heuristics sampled from the seed prompt before the first round."""
    actions: PositiveInt = 2
    """Actions the policy proposes per inner step."""
    rollouts: PositiveInt = 2
    """Candidate heuristics the world model writes per action."""
    inner_steps: PositiveInt = 3
    """Inner-loop steps per round (graph growth before the population is updated)."""
    perturbation: float = 0.3
    """Initial prompt-perturbation probability; it decays linearly to zero over the budget."""
    seed: int = 0
    """Seed of every random choice of the search."""
    workers: PositiveInt = 2
    """Candidates evaluated in parallel."""
    wall_s: PositiveFloat = 60.0
    """Sandbox wall-clock limit per instance set."""
    test: bool = True
    """Evaluate the best heuristic and the baselines on the test sets at the end."""
    test_sizes: list[PositiveInt] | None = None
    """Instance sizes of the test sets to evaluate (None: every test set of the problem)."""
    executor: str | None = None
    """Where heuristic evaluations run: local (this process), ray (the Ray cluster at RAY_ADDRESS, else a new
    local instance) or ray://HOST:PORT; None: AGENT_EXECUTOR, else local. The graph, the model calls, the cache
    and the graph's writes stay in this process either way."""


@dataclass
class Placed:
    """A candidate to evaluate and place in the graph."""

    node_id: str
    candidate: Candidate
    parents: list[str]
    rationale: str
    origin: str
    round: int = 0
    step: int = 0


class SearchContext:
    """Shared services of a search; lives outside the checkpointed state."""

    def __init__(self, config: PathWiseConfig, roles, workdir: Path, sandbox=None):
        self.config = config
        self.problem = get_problem(config.problem)
        self.roles = roles
        evaluator_config = EvaluatorConfig(wall_s=config.wall_s, workers=config.workers,
                                           cache_path=workdir / "evaluations.sqlite")
        self.executor = make_executor(config.executor, os.environ.get("AGENT_SANDBOX"))  # nodes: the run's backend
        self.evaluator = Evaluator(self.problem, "train", evaluator_config, sandbox=sandbox, executor=self.executor)
        self.store = GraphStore(workdir / "entailment.sqlite")
        self.graph: EntailmentGraph = self.store.load()
        self.progress = None
        self.totals = None

    def close(self) -> None:
        """Let go of the executor (on ray: leave the cluster)."""
        self.executor.close()

    def show_progress(self, evaluations: int) -> None:
        """Evaluations used, the best gap so far and the model cost on the run's progress display, if any."""
        if self.progress is not None:
            best = self.graph.best()
            cost = self.totals.as_dict().get("cost_usd") if self.totals is not None else None
            self.progress.update(step=evaluations, best=f"{best.score:.4f}%" if best else None, cost=cost)

    def rng(self, *position: int) -> random.Random:
        """A random stream fixed by the run seed and a search position (resume-stable)."""
        return random.Random(hash((self.config.seed, *position)) & 0xFFFFFFFF)

    def perturb_probability(self, evaluations: int) -> float:
        return self.config.perturbation * max(0.0, 1.0 - evaluations / self.config.budget)

    def place(self, batch: list[Placed]) -> list[tuple[Placed, Evaluation]]:
        """Evaluate a batch in parallel and add every candidate as a node."""
        evaluations = self.evaluator.evaluate_many([p.candidate.code for p in batch])
        for placed, evaluation in zip(batch, evaluations):
            self.add_node(placed, evaluation)
        return list(zip(batch, evaluations))

    def add_node(self, placed: Placed, evaluation: Evaluation) -> HeuristicNode:
        node = HeuristicNode(placed.node_id, placed.candidate.code, placed.candidate.description, placed.rationale,
                             score=evaluation.score if evaluation.ok else None, failure=evaluation.failure,
                             origin=placed.origin, round=placed.round, step=placed.step)
        self.graph.add(node, placed.parents)
        self.store.save_node(self.graph, node.id)
        emit("pathwise.node", id=node.id, score=node.score, failure=node.failure, parents=placed.parents,
             message=evaluation.message[:300])
        return node

    def seed_nodes(self) -> list[str]:
        """Evaluate the classic baselines as the graph's roots (once)."""
        batch = [Placed(f"seed_{name}", Candidate(code, f"classic baseline: {name}"), [], "classic baseline", "seed")
                 for name, code in self.problem.baselines.items() if f"seed_{name}" not in self.graph]
        self.place(batch)
        return [f"seed_{name}" for name in self.problem.baselines]

    def sample_from_seed(self, prefix: str, count: int, seeds: list[str], round_: int = 0) -> list[tuple[Placed, Evaluation]]:
        """``count`` heuristics written from the seed prompt (the seeds as context), evaluated and placed."""
        parents = [self.graph.node(s) for s in seeds]
        batch = []
        for index in range(count):
            candidate = self.roles.rollout(self.problem, parents, SEED_DIRECTIVE, "", False,
                                           seed=self.rng(round_, index, 7).randrange(2**31))
            if candidate is not None:
                batch.append(Placed(f"{prefix}{index}", candidate, seeds, SEED_DIRECTIVE, "init", round_))
        return self.place(batch)

    def best_history_point(self, evaluations: int) -> list[float]:
        self.show_progress(evaluations)
        best = self.graph.best()
        return [evaluations, best.score if best else float("nan")]


def select_population(nodes: list[HeuristicNode], size: int) -> list[str]:
    """The best ``size`` scored nodes, deduplicated by code and by score (to 1e-9)."""
    chosen, codes, scores = [], set(), set()
    for node in sorted((n for n in nodes if n.score is not None), key=lambda n: n.fitness):
        score_key = round(node.score, 9)
        if node.code in codes or score_key in scores:
            continue
        chosen.append(node.id)
        codes.add(node.code)
        scores.add(score_key)
        if len(chosen) == size:
            break
    return chosen
