"""EoH-style evolution and random sampling run on the same evaluator and budget."""

from agents.pathwise.agent import AGENT, execute
from agents.pathwise.context import PathWiseConfig
from agents.pathwise.offline import NAME as OFFLINE_NAME
from agents.runtime.launch import RunOptions, execute_run, wrap_model
from agents.runtime.registry import register_agent
from agents.runtime.run import Run
from memory.entailment.store import GraphStore


def run_method(method, model, budget=10):
    register_agent(AGENT, execute)
    config = PathWiseConfig(problem="kp_construct", method=method, budget=budget, initial_population=1,
                            population=2, test=False)
    run = Run.create(AGENT, config)
    report = execute_run(run, wrap_model(model, run, RunOptions()) if model else None)
    return report, GraphStore(run.dir / "entailment.sqlite").load()


def test_eoh_uses_its_four_operators(pathwise_env, scripted):
    report, graph = run_method("eoh", scripted())
    operators = {n.rationale.split(":")[0] for n in graph.nodes() if n.origin == "rollout"}
    assert operators == {"e1", "e2", "m1", "m2"}
    assert report.summary["evaluations"] == 10 and report.summary["method"] == "eoh"
    e1 = next(n for n in graph.nodes() if n.rationale.startswith("e1"))
    assert 1 <= len(e1.parents) <= 2 and "totally different" in e1.rationale


def test_random_sampling_only_samples_from_the_seed_prompt(pathwise_env):
    report, graph = run_method("random", None, budget=4)
    assert {n.origin for n in graph.nodes()} == {"seed", "init"}
    assert report.summary["policy"] == OFFLINE_NAME
    assert report.summary["evaluations"] == 4
