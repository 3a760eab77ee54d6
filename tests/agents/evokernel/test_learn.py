import math

import numpy as np
import pytest

from agents.evokernel.config import EvoKernelConfig
from agents.evokernel.context import START_POINT, Deps, choose_start_point, signature
from agents.evokernel.learn import attempt_record, draft_reward, learn, refine_reward
from agents.evokernel.state import DRAFT, REFINE, apply_attempt, new_task_state
from benchmarks.kernels.tasks import load_tasks
from memory.qmemory import QMemory, QMemoryConfig


def test_draft_reward_is_plus_or_minus_one():
    assert draft_reward(True) == 1.0 and draft_reward(False) == -1.0


def test_refine_reward_is_tanh_of_the_log_latency_gain():
    assert refine_reward(True, 2.0, 1.0) == pytest.approx(math.tanh(math.log(2.0)))  # 0.6
    assert refine_reward(True, 1.0, 2.0) == pytest.approx(-0.6)
    assert refine_reward(True, 1.0, 1.0) == 0.0
    assert refine_reward(False, 1.0, None) == -1.0


def test_attempt_record_rewards_by_stage_against_the_best_so_far():
    task = {"best_ms": 4.0}
    verdict = {"status": "correct", "feasible": True, "compiled": True, "latency_ms": 1.0, "feedback": "ok"}
    refine = attempt_record(task, {"attempt": 3, "stage": "refine"}, verdict)
    assert refine["reward"] == pytest.approx(math.tanh(math.log(4.0)))
    draft = attempt_record(task, {"attempt": 1, "stage": "draft"}, {**verdict, "feasible": False})
    assert draft["reward"] == -1.0 and draft["attempt"] == 1



@pytest.fixture
def deps(tmp_path):
    """An evokernel run's dependencies that always take the greedy start point (no policy, a fresh memory)."""
    config = EvoKernelConfig(method="evokernel", budget=8, start_point_epsilon=0.0)
    memory = QMemory(tmp_path / "m.sqlite", QMemoryConfig(embedding="hashed-tfidf"))
    yield Deps(config, memory, policy=None)
    memory.close()


@pytest.fixture(scope="module")
def relu():
    return load_tasks("builtin:L1:relu")[0]


def verified(latency_ms):
    return {"status": "correct", "feasible": True, "compiled": True, "latency_ms": latency_ms, "reference_ms": 2.0,
            "bottleneck": "vector", "roofline_fraction": 0.5, "profile": "", "feedback": "ok", "extras": {}}


def learn_attempt(kernel, task, deps, candidate, verdict):
    """One attempt through learn and into the task, as the graph does it."""
    context = {"signature": signature(deps.config, task), "q_ids": []}
    record = attempt_record(task, {**candidate, "code_path": "unused.py", "params": None}, verdict)
    record = learn(kernel, task, context, record, deps, "run", "class ModelNew: pass", None)
    return apply_attempt(task, record, deps.config.budget), record


def draft_then_refine(kernel, deps, refined_ms):
    """A feasible 2 ms draft, then one refinement of it that runs in ``refined_ms``."""
    task, draft = learn_attempt(kernel, new_task_state(kernel, "evokernel"), deps, {"attempt": 1, "stage": DRAFT},
                                verified(2.0))
    task, child = learn_attempt(kernel, task, deps, {"attempt": 2, "stage": REFINE, "start_point": 1,
                                                     "start_memory_id": draft["memory_id"]}, verified(refined_ms))
    sig = signature(deps.config, task)
    return task, sig, draft, child, deps.memory.q(START_POINT, sig, [draft["memory_id"], child["memory_id"]])


def test_the_faster_child_is_the_next_start_point_when_its_parents_credit_came_from_producing_it(deps, relu):
    task, sig, draft, child, values = draft_then_refine(relu, deps, 1.0)
    assert child["reward"] > 0 and child["applied_reward"] > 0  # refining the draft paid: the draft is credited
    assert values[child["memory_id"]] > values[draft["memory_id"]] > 0
    assert choose_start_point(relu, task, deps, sig, np.random.default_rng(0))["attempt"] == 2
    # the retrieval credit of the refine stage is another table: the start point's value did not land there
    assert deps.memory.q(REFINE, sig, [draft["memory_id"]])[draft["memory_id"]] == 0.0


def test_a_child_slower_than_the_best_starts_below_its_parent(deps, relu):
    task, sig, draft, slower, values = draft_then_refine(relu, deps, 3.0)
    assert values[slower["memory_id"]] < values[draft["memory_id"]] < 0
    assert choose_start_point(relu, task, deps, sig, np.random.default_rng(0))["attempt"] == 1
    assert slower["q_update"]["start_point"] == {"stage": START_POINT, "id": draft["memory_id"],
                                                 "child": slower["memory_id"], "child_signature": sig}
