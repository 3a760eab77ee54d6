"""A killed PathWise run resumes from its last checkpoint without redoing finished work."""

import pytest

from agents.pathwise.agent import AGENT, execute
from agents.pathwise.context import SEED_DIRECTIVE, PathWiseConfig
from agents.runtime.launch import RunOptions, execute_run, wrap_model
from agents.runtime.registry import register_agent
from agents.runtime.run import Run
from memory.entailment.store import GraphStore
from tests.agents.pathwise.conftest import role_roles

CONFIG = PathWiseConfig(problem="kp_construct", budget=10, initial_population=2, population=2, actions=2,
                        rollouts=2, inner_steps=2, test=False)


def test_a_killed_run_resumes_after_the_last_finished_node(pathwise_env, scripted):
    register_agent(AGENT, execute)
    run = Run.create(AGENT, CONFIG)
    dying = scripted(fail_at=6)  # 2 init rollouts, policy, 2 rollouts, then the kill
    with pytest.raises(RuntimeError, match="simulated kill"):
        execute_run(run, wrap_model(dying, run, RunOptions()))
    before = {n.id for n in GraphStore(run.dir / "entailment.sqlite").load().nodes()}
    assert {"seed_greedy_ratio", "init_0", "init_1"} <= before

    again = Run.open(run.id)
    fresh = scripted()
    report = execute_run(again, wrap_model(fresh, again, RunOptions()))
    prompts = role_roles(fresh)
    assert not any(f"Directive: {SEED_DIRECTIVE}" in p for p in prompts["world model"]), "initialisation ran again"
    assert report.summary["evaluations"] == CONFIG.budget
    assert report.summary["best"] == f"{report.summary['best_train_gap_percent']:.4g}% train gap"  # runs list's best
    after = {n.id for n in GraphStore(again.dir / "entailment.sqlite").load().nodes()}
    assert before < after and "r1s0a0" in after
    assert again.events("graph.resume")
