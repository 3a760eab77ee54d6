"""Baselines on the same problems, evaluator and budget: EoH-style evolution and random sampling.

EoH-style: each generation applies the four EoH operators (e1: a new idea unlike the parents, e2:
the parents' shared idea made better, m1: a modified version of one parent, m2: the same idea with
new parameters) ``population`` times each to parents drawn by rank, then keeps the best
``population`` distinct heuristics. Random sampling: batches written from the seed prompt only.
"""

from __future__ import annotations

from typing import TypedDict

from langgraph.graph import END, StateGraph

from agents.pathwise.context import Placed, SearchContext, select_population

OPERATORS = {
    "e1": (2, "Create a heuristic whose idea is totally different from these parents."),
    "e2": (2, "Find the idea these parents share and write a new heuristic that develops it further."),
    "m1": (1, "Modify this heuristic into a new one with a changed scoring form."),
    "m2": (1, "Keep this heuristic's idea but change its parameters or the weighting of its terms."),
}


class BaselineState(TypedDict, total=False):
    generation: int
    evaluations: int
    population: list[str]
    history: list[list[float]]


def initialize(ctx: SearchContext, state: BaselineState) -> BaselineState:
    seeds = ctx.seed_nodes()
    room = max(0, ctx.config.budget - len(seeds))
    placed = ctx.sample_from_seed("init_", min(ctx.config.initial_population, room), seeds)
    evaluations = len(seeds) + len(placed)
    return {"generation": 1, "evaluations": evaluations,
            "population": select_population(ctx.graph.nodes(), ctx.config.population),
            "history": [ctx.best_history_point(evaluations)]}


def eoh_generation(ctx: SearchContext, state: BaselineState) -> BaselineState:
    generation, population = state["generation"], state["population"]
    room = ctx.config.budget - state["evaluations"]
    batch, attempts = [], 0
    for name, (arity, directive) in OPERATORS.items():
        for index in range(ctx.config.population):
            if attempts >= room:
                break
            attempts += 1
            rng = ctx.rng(generation, index, len(name), ord(name[1]))
            parents = _rank_select(population, arity, rng)
            candidate = ctx.roles.rollout(ctx.problem, [ctx.graph.node(p) for p in parents], directive, "", False,
                                          seed=rng.randrange(2**31))
            if candidate is not None:
                batch.append(Placed(f"g{generation}{name}_{index}", candidate, parents, f"{name}: {directive}",
                                    "rollout", generation))
    ctx.place(batch)
    used = state["evaluations"] + attempts
    candidates = [ctx.graph.node(n) for n in population] + [ctx.graph.node(p.node_id) for p in batch]
    return {"generation": generation + 1, "evaluations": used,
            "population": select_population(candidates, ctx.config.population) or population,
            "history": state["history"] + [ctx.best_history_point(used)]}


def _rank_select(population: list[str], arity: int, rng) -> list[str]:
    """EoH's rank-based parent choice: weight 1 / (rank + population size), without replacement."""
    pool, chosen = list(population), []
    while pool and len(chosen) < arity:
        weights = [1.0 / (rank + 1 + len(population)) for rank in range(len(pool))]
        chosen.append(pool.pop(rng.choices(range(len(pool)), weights)[0]))
    return chosen


def random_batch(ctx: SearchContext, state: BaselineState) -> BaselineState:
    generation = state["generation"]
    count = min(ctx.config.initial_population, ctx.config.budget - state["evaluations"])
    seeds = [f"seed_{name}" for name in ctx.problem.baselines]
    ctx.sample_from_seed(f"g{generation}_", count, seeds, round_=generation)
    used = state["evaluations"] + count
    return {"generation": generation + 1, "evaluations": used,
            "population": select_population(ctx.graph.nodes(), ctx.config.population),
            "history": state["history"] + [ctx.best_history_point(used)]}


def build(ctx: SearchContext, method: str) -> StateGraph:
    """The EoH (``eoh``) or random-sampling (``random``) state graph over ``ctx``."""
    step = eoh_generation if method == "eoh" else random_batch
    builder = StateGraph(BaselineState)
    builder.add_node("initialize", lambda s: initialize(ctx, s))
    builder.add_node("generation", lambda s: step(ctx, s))
    builder.set_entry_point("initialize")
    route = lambda s: "generation" if s["evaluations"] < ctx.config.budget else END  # noqa: E731
    builder.add_conditional_edges("initialize", route)
    builder.add_conditional_edges("generation", route)
    return builder
