"""Prompt contents and reply parsing of the PathWise roles."""

import pytest

from agents.pathwise import prompts
from benchmarks.ahd.registry import get_problem
from memory.entailment.graph import HeuristicNode

PROBLEM = get_problem("bpp_online")
NODE = HeuristicNode("h1", "def priority(item, bins_remain_cap):\n    return -bins_remain_cap\n", "worst fit",
                     "start", score=5.0, parents=[{"id": "h0", "description": "seed", "score": 4.0}])


def test_policy_prompt_shows_graph_state_and_only_policy_advice():
    messages = prompts.policy_messages(PROBLEM, [NODE], 2, "use h1")
    text = messages[-1]["content"]
    assert "h1" in text and "worst fit" in text and "gap 5.0000%" in text and "h0" in text
    assert "return -bins_remain_cap" in text and "use h1" in text


def test_world_model_prompt_carries_directive_advice_and_perturbation():
    text = prompts.world_model_messages(PROBLEM, [NODE], "add a penalty", "avoid loops", True)[-1]["content"]
    assert "add a penalty" in text and "avoid loops" in text and prompts.PERTURBATION in text
    assert PROBLEM.signature in text
    plain = prompts.world_model_messages(PROBLEM, [NODE], "add a penalty", "", False)[-1]["content"]
    assert prompts.PERTURBATION not in plain and "code critic" not in plain


def test_parse_candidate_needs_the_named_function():
    reply = "DESCRIPTION: tight fit\n```python\ndef priority(item, bins_remain_cap):\n    return -bins_remain_cap\n```"
    candidate = prompts.parse_candidate(reply, "priority")
    assert candidate.description == "tight fit" and "def priority" in candidate.code
    with pytest.raises(ValueError, match="does not define"):
        prompts.parse_candidate(reply, "select_next_node")
    with pytest.raises(ValueError, match="no ```python"):
        prompts.parse_candidate("no code here", "priority")
    with pytest.raises(SyntaxError):
        prompts.parse_candidate("```python\ndef priority(:\n```", "priority")


def test_parse_actions_keeps_known_parents_only():
    reply = '```json\n[{"parents": ["h1", "zz"], "directive": "mix"}, {"parents": ["zz"], "directive": "x"}]\n```'
    actions = prompts.parse_actions(reply, {"h1"}, 3)
    assert [(a.parents, a.directive) for a in actions] == [(["h1"], "mix")]
    with pytest.raises(ValueError, match="known"):
        prompts.parse_actions('[{"parents": ["zz"], "directive": "x"}]', {"h1"}, 3)
