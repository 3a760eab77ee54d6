"""PathWise with a scripted model: graph construction, critic routing, population update, budget."""

from agents.pathwise.agent import AGENT
from agents.pathwise.context import PathWiseConfig
from agents.runtime.launch import RunOptions, execute_run, wrap_model
from agents.runtime.registry import register_agent
from agents.runtime.run import Run
from memory.entailment.store import GraphStore
import pytest

from agents.pathwise.prompts import PERTURBATION
from tests.agents.pathwise.conftest import CODE_ADVICE, POLICY_ADVICE, role_roles, scripted_model

CONFIG = PathWiseConfig(problem="kp_construct", budget=16, initial_population=3, population=3, actions=2,
                        rollouts=2, inner_steps=2, test=False, workers=2)


def run_search(model, config=CONFIG):
    from agents.pathwise.agent import execute

    register_agent(AGENT, execute)
    run = Run.create(AGENT, config)
    return run, execute_run(run, wrap_model(model, run, RunOptions()))


@pytest.fixture(scope="module")
def searched(module_env):
    model = scripted_model()
    run, report = run_search(model)
    return run, report, model


def test_graph_holds_nodes_edges_rationales_and_parent_summaries(searched):
    run, report, model = searched
    graph = GraphStore(run.dir / "entailment.sqlite").load()
    ids = {n.id for n in graph.nodes()}
    assert {"seed_greedy_ratio", "init_0", "init_1", "init_2", "r1s0a0", "r1s0a1", "r1s1a0", "r2s0a0"} <= ids
    derived = graph.node("r1s0a1")
    assert derived.rationale == "blend the two rules" and len(derived.parents) == 2
    assert all({"id", "description", "score"} == set(p) for p in derived.parents)
    edges = [e for e in graph.edges() if e["target"] == "r1s0a1"]
    assert len(edges) == 2 and {e["rationale"] for e in edges} == {"blend the two rules"}
    assert report.summary["evaluations"] == CONFIG.budget
    assert report.summary["policy"].startswith("llm")
    assert report.summary["calls"] == len(model.calls)
    assert len(run.events("ahd.evaluation")) >= 10, "evaluations in worker threads reach the run's events"
    for name in ("graph_json", "graph_graphml", "graph_picture", "convergence_plot", "best_heuristic"):
        assert (run.artifacts / report.summary[name].rsplit("/", 1)[-1]).exists()


def test_critic_advice_is_routed_to_its_own_role_only(searched):
    prompts = role_roles(searched[2])
    policy, world = prompts["policy agent"], prompts["world model"]
    assert any(POLICY_ADVICE in p for p in policy) and any(CODE_ADVICE in p for p in world)
    assert not any(CODE_ADVICE in p for p in policy)
    assert not any(POLICY_ADVICE in p for p in world)
    assert len(prompts["policy critic"]) >= 1 and len(prompts["code critic"]) >= 1


def test_prompt_perturbation_reaches_some_world_model_prompts(searched):
    world = role_roles(searched[2])["world model"]
    perturbed = [PERTURBATION in p for p in world]
    assert any(perturbed), "the seeded search perturbs some world-model prompts"
    assert not all(perturbed)


def test_population_is_updated_from_the_leaves(searched):
    run = searched[0]
    updates = run.events("pathwise.population")
    assert updates, "the outer loop updated the population"
    graph = GraphStore(run.dir / "entailment.sqlite").load()
    population = updates[0]["population"]
    scores = [graph.node(n).score for n in population]
    assert len(population) == len(set(scores)) == CONFIG.population
    assert scores == sorted(scores)


def test_critics_are_skipped_when_all_scores_tie(pathwise_env, scripted):
    model = scripted(exponents=(1.0,))
    run_search(model, CONFIG.model_copy(update={"budget": 10}))
    prompts = role_roles(model)
    assert "policy critic" not in prompts and "code critic" not in prompts
