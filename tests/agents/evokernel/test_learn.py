import math

import pytest

from agents.evokernel.learn import attempt_record, draft_reward, refine_reward


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
