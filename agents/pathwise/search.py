"""The PathWise loop as a LangGraph state machine: initialise, inner steps, population updates.

Outer loop: rounds over a population. Inner loop: ``inner_steps`` steps that grow the entailment
graph rooted at the population. In a step the policy proposes actions (parent set + directive), the
world model writes ``rollouts`` candidates per action, all are evaluated, and the best rollout of each
action becomes a node with edges from its parents. The policy critic (actions and mean rollout
scores) advises the next policy prompt only; the world-model critic (best and worst rollout code)
advises the next world-model prompt only; both are skipped when all scores tie.
"""

from __future__ import annotations

import math
import operator
from typing import Annotated, TypedDict

from langgraph.graph import END, StateGraph

from agents.pathwise.context import Placed, SearchContext, select_population
from agents.pathwise.prompts import Action
from benchmarks.ahd.evaluation import Evaluation
from sandboxes.telemetry import emit


class SearchState(TypedDict, total=False):
    round: int
    step: int
    evaluations: int
    population: list[str]
    policy_advice: str
    world_model_advice: str
    history: Annotated[list[list[float]], operator.add]


def initialize(ctx: SearchContext, state: SearchState) -> SearchState:
    seeds = ctx.seed_nodes()
    room = max(0, ctx.config.budget - len(seeds))
    placed = ctx.sample_from_seed("init_", min(ctx.config.initial_population, room), seeds)
    evaluations = len(seeds) + len(placed)
    population = select_population(ctx.graph.nodes(), ctx.config.population)
    return {"round": 1, "step": 0, "evaluations": evaluations, "population": population, "policy_advice": "",
            "world_model_advice": "", "history": [ctx.best_history_point(evaluations)]}


def inner_step(ctx: SearchContext, state: SearchState) -> SearchState:
    round_, step, used = state["round"], state["step"], state["evaluations"]
    scope = sorted(ctx.graph.reachable(state["population"]))
    nodes = [ctx.graph.node(n) for n in scope]
    actions = ctx.roles.propose(ctx.problem, nodes, ctx.config.actions, state["policy_advice"],
                                seed=ctx.rng(round_, step, -1).randrange(2**31))
    rollouts, attempts = _rollouts(ctx, state, actions)
    results = _evaluate(ctx, rollouts)
    used += attempts  # unusable replies count too, so a model that never answers cannot loop forever
    outcomes, best_worst = _place_best(ctx, actions, results, round_, step)
    update: SearchState = {"step": step + 1, "evaluations": used, "history": [ctx.best_history_point(used)]}
    if _spread(outcomes):
        update["policy_advice"] = ctx.roles.policy_advice(ctx.problem, outcomes)
    if best_worst is not None:
        update["world_model_advice"] = ctx.roles.world_model_advice(ctx.problem, *best_worst)
    emit("pathwise.step", round=round_, step=step, evaluations=used, actions=len(actions),
         critics=[key for key in ("policy_advice", "world_model_advice") if key in update])
    return update


def _rollouts(ctx: SearchContext, state: SearchState, actions: list[Action]) -> tuple[list[tuple[int, Placed]], int]:
    round_, step = state["round"], state["step"]
    room = ctx.config.budget - state["evaluations"]
    chosen, attempts = [], 0
    for a, action in enumerate(actions):
        parents = [ctx.graph.node(p) for p in action.parents]
        for r in range(ctx.config.rollouts):
            if attempts >= room:
                return chosen, attempts
            attempts += 1
            rng = ctx.rng(round_, step, a, r)
            perturb = rng.random() < ctx.perturb_probability(state["evaluations"])
            candidate = ctx.roles.rollout(ctx.problem, parents, action.directive, state["world_model_advice"],
                                          perturb, seed=rng.randrange(2**31))
            if candidate is not None:
                node_id = f"r{round_}s{step}a{a}"
                chosen.append((a, Placed(node_id, candidate, action.parents, action.directive, "rollout", round_, step)))
    return chosen, attempts


def _evaluate(ctx: SearchContext, rollouts: list[tuple[int, Placed]]) -> list[tuple[int, Placed, Evaluation]]:
    evaluations = ctx.evaluator.evaluate_many([p.candidate.code for _, p in rollouts])
    return [(a, placed, evaluation) for (a, placed), evaluation in zip(rollouts, evaluations)]


def _place_best(ctx: SearchContext, actions: list[Action], results, round_: int, step: int):
    """Add each action's best rollout as a node; return (action, mean score) and (best, worst) code."""
    outcomes = []
    for a, action in enumerate(actions):
        mine = [(p, e) for i, p, e in results if i == a]
        if not mine:
            continue
        placed, evaluation = min(mine, key=lambda pe: pe[1].fitness)
        ctx.add_node(placed, evaluation)
        scores = [e.score for _, e in mine if e.ok]
        outcomes.append((action, sum(scores) / len(scores) if scores else None))
    ranked = sorted(((p, e) for _, p, e in results), key=lambda pe: pe[1].fitness)
    best_worst = None
    if len(ranked) >= 2 and ranked[0][1].fitness != ranked[-1][1].fitness:
        best_worst = tuple((p.candidate.code, e.summary()) for p, e in (ranked[0], ranked[-1]))
    return outcomes, best_worst


def _spread(outcomes: list[tuple[Action, float | None]]) -> bool:
    """True unless all mean scores tie (all failed counts as a tie)."""
    values = {math.inf if s is None else round(s, 9) for _, s in outcomes}
    return len(values) > 1


def update_population(ctx: SearchContext, state: SearchState) -> SearchState:
    leaves = ctx.graph.leaves(within=state["population"])
    keep = [ctx.graph.node(n) for n in state["population"]]
    population = select_population(leaves + keep, ctx.config.population)
    emit("pathwise.population", round=state["round"], population=population)
    return {"round": state["round"] + 1, "step": 0, "population": population}


def build(ctx: SearchContext) -> StateGraph:
    """The PathWise state graph over ``ctx`` (nodes close over the context, state stays small)."""
    builder = StateGraph(SearchState)
    builder.add_node("initialize", lambda s: initialize(ctx, s))
    builder.add_node("inner_step", lambda s: inner_step(ctx, s))
    builder.add_node("update_population", lambda s: update_population(ctx, s))
    builder.set_entry_point("initialize")
    budget_left = lambda s: s["evaluations"] < ctx.config.budget  # noqa: E731
    builder.add_conditional_edges("initialize", lambda s: "inner_step" if budget_left(s) else END)
    builder.add_conditional_edges("inner_step", lambda s: END if not budget_left(s) else
                                  "inner_step" if s["step"] < ctx.config.inner_steps else "update_population")
    builder.add_conditional_edges("update_population", lambda s: "inner_step" if budget_left(s) else END)
    return builder
